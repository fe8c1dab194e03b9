import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { notSampledTraceparent } from '../src/telemetry/trace';
import {
  doorRatioOf,
  doorSampler,
  sampledFlagOf,
  traceIdBelowRatio,
  tracedAtDoor,
} from '../src/telemetry/sampling';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const header = (flags: string, version = '00') => `${version}-${TRACE_ID}-${SPAN_ID}-${flags}`;

describe('the sampling decision at the door', () => {
  it('reads the sampled flag of a valid traceparent', () => {
    expect(sampledFlagOf(header('01'))).toBe(true);
    expect(sampledFlagOf(header('00'))).toBe(false);
    // other flags beside the sampled bit
    expect(sampledFlagOf(header('03'))).toBe(true);
    expect(sampledFlagOf(header('02'))).toBe(false);
    // a later version may carry more after the flags; several headers: the first
    expect(sampledFlagOf(`${header('01', '01')}-more`)).toBe(true);
    expect(sampledFlagOf([header('00'), header('01')])).toBe(false);
  });

  it('finds no decision in a missing or invalid traceparent', () => {
    for (const invalid of [
      undefined,
      '',
      'not a traceparent',
      header('01', 'ff'), // version ff is invalid
      `00-${'0'.repeat(32)}-${SPAN_ID}-01`, // zero trace id
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`, // zero span id
      `${header('01')}-extra`, // version 00 ends at the flags
      `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`, // lower-case hex only
      `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`,
      `00-${TRACE_ID}-${SPAN_ID}-1`,
    ]) {
      expect(sampledFlagOf(invalid), String(invalid)).toBeUndefined();
    }
  });

  it('reads the root ratio from the sampler env, as the SDK does', () => {
    expect(doorRatioOf({})).toBe(1);
    expect(doorRatioOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' })).toBe(1);
    expect(doorRatioOf({ OTEL_TRACES_SAMPLER: 'always_on' })).toBe(1);
    expect(doorRatioOf({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    expect(doorRatioOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
    const ratio = (name: string, arg?: string) =>
      doorRatioOf({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: arg });
    expect(ratio('parentbased_traceidratio', '0.1')).toBe(0.1);
    expect(ratio('traceidratio', '0.25')).toBe(0.25);
    expect(ratio('traceidratio', '0')).toBe(0);
    // blank or out of range: 1, as the SDK defaults it
    expect(ratio('parentbased_traceidratio')).toBe(1);
    expect(ratio('parentbased_traceidratio', '1.5')).toBe(1);
    expect(ratio('parentbased_traceidratio', '-1')).toBe(1);
    expect(ratio('parentbased_traceidratio', 'ten')).toBe(1);
  });

  it('follows a traceparent whatever the ratio, else draws with the ratio', () => {
    const never = () => 0.999;
    const always = () => 0;
    expect(tracedAtDoor(header('01'), 0, never)).toBe(true);
    expect(tracedAtDoor(header('00'), 1, always)).toBe(false);
    expect(tracedAtDoor(undefined, 0.1, () => 0.05)).toBe(true);
    expect(tracedAtDoor(undefined, 0.1, () => 0.1)).toBe(false);
    expect(tracedAtDoor('garbage', 0.1, () => 0.05)).toBe(true);
    expect(tracedAtDoor(undefined, 1, never)).toBe(true);
    expect(tracedAtDoor(undefined, 0, always)).toBe(false);
    // about the ratio over many draws (Math.random)
    let traced = 0;
    for (let i = 0; i < 20_000; i++) if (tracedAtDoor(undefined, 0.1)) traced++;
    expect(traced / 20_000).toBeGreaterThan(0.08);
    expect(traced / 20_000).toBeLessThan(0.12);
  });
});

describe("the SDK's sampler behind the door", () => {
  const sampler = doorSampler(0.1);
  const decide = (kind: SpanKind, parentFlags?: TraceFlags, traceId = TRACE_ID) => {
    const context =
      parentFlags === undefined
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, {
            traceId,
            spanId: SPAN_ID,
            traceFlags: parentFlags,
            isRemote: true,
          });
    return sampler.shouldSample(context, traceId, 'span', kind, {}, []).decision;
  };
  const SAMPLED = 2;
  const NOT = 0;

  it("follows a parent's flag, remote or local, whatever the kind", () => {
    for (const kind of [SpanKind.SERVER, SpanKind.CLIENT, SpanKind.CONSUMER, SpanKind.INTERNAL]) {
      expect(decide(kind, TraceFlags.SAMPLED)).toBe(SAMPLED);
      expect(decide(kind, TraceFlags.NONE)).toBe(NOT);
    }
  });

  it('samples a root SERVER span (the door admitted it) and draws any other root', () => {
    // a trace id below 10% and one above (the four 32-bit words xor-ed)
    const low = '00000000000000000000000000000001';
    const high = 'ffffffff000000000000000000000000';
    expect(traceIdBelowRatio(low, 0.1)).toBe(true);
    expect(traceIdBelowRatio(high, 0.1)).toBe(false);
    expect(decide(SpanKind.SERVER, undefined, high)).toBe(SAMPLED);
    expect(decide(SpanKind.CONSUMER, undefined, high)).toBe(NOT);
    expect(decide(SpanKind.CONSUMER, undefined, low)).toBe(SAMPLED);
    expect(traceIdBelowRatio(high, 1)).toBe(true);
    expect(traceIdBelowRatio(low, 0)).toBe(false);
  });
});

describe('the not-sampled traceparent a proxy sends upstream', () => {
  it('is valid, not sampled, and fresh each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const value = notSampledTraceparent();
      expect(sampledFlagOf(value), value).toBe(false);
      expect(value).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-00$/);
      seen.add(value.slice(3, 35));
    }
    expect(seen.size).toBe(600);
  });
});
