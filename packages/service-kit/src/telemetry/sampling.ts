import { SpanKind, trace, TraceFlags, type Context } from '@opentelemetry/api';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';

/**
 * The sampling decision, taken once at the door: before the http instrumentation
 * does any work for an incoming request (`ignoreIncomingRequestHook`), so that the requests a
 * trace will not keep cost no span, no attributes and no propagation at all (they were 37% of
 * the traced gateway's CPU at 10% sampled, each unsampled request still building a
 * NonRecordingSpan, its attributes and its undici call's).
 *
 * - A valid W3C `traceparent` carries the decision: flag 01 traced, 00 not (ignored);
 * - without one (or an invalid one) the request is a root: traced with the configured ratio
 *   (`doorRatioOf`, read once from `OTEL_TRACES_SAMPLER`/`_ARG` as the SDK reads them).
 *
 * A request the door admitted is then recorded and sampled by the SDK without a second draw
 * (`doorSampler`); an ignored one runs with tracing suppressed, so no instrumentation below it
 * (Fastify's, pg, mongodb, ioredis, undici) makes a span of it.
 */

/** W3C trace-context's traceparent (the OpenTelemetry propagator's own pattern). */
const TRACEPARENT =
  /^\s?((?!ff)[\da-f]{2})-((?![0]{32})[\da-f]{32})-((?![0]{16})[\da-f]{16})-([\da-f]{2})(-.*)?\s?$/;

/**
 * The sampled flag of a valid `traceparent` (true 01, false 00), undefined when there is none
 * or it is not valid (version ff, zero ids, version 00 with more after the flags). Several
 * headers: the first, as the propagator reads them.
 */
export function sampledFlagOf(header: string | string[] | undefined): boolean | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match || (match[1] === '00' && match[5])) return undefined;
  return (parseInt(match[4]!, 16) & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/**
 * The share of root requests the door traces, from the standard sampler env: `always_on`
 * and `parentbased_always_on` (the default) 1, `always_off` and `parentbased_always_off` 0,
 * `traceidratio` and `parentbased_traceidratio` their `OTEL_TRACES_SAMPLER_ARG` (1 when blank
 * or out of [0, 1], as the SDK does). The door is parent-based whatever the name says: a
 * request's own `traceparent` decides first.
 */
export function doorRatioOf(env: NodeJS.ProcessEnv): number {
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case 'always_off':
    case 'parentbased_always_off':
      return 0;
    case 'traceidratio':
    case 'parentbased_traceidratio': {
      const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
      const ratio = arg ? Number(arg) : NaN;
      return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1;
    }
    default:
      return 1;
  }
}

/** Whether the door traces a request with this `traceparent` header (`random` in [0, 1)). */
export function tracedAtDoor(
  traceparent: string | string[] | undefined,
  ratio: number,
  random: () => number = Math.random,
): boolean {
  const sampled = sampledFlagOf(traceparent);
  if (sampled !== undefined) return sampled;
  return ratio >= 1 || (ratio > 0 && random() < ratio);
}

type Sampler = NonNullable<NodeSDKConfiguration['sampler']>;
type Decision = ReturnType<Sampler['shouldSample']>['decision'];
/** `SamplingDecision` of @opentelemetry/sdk-trace (NOT_RECORD, RECORD_AND_SAMPLED). */
const NOT_RECORD = 0 as Decision;
const RECORD_AND_SAMPLED = 2 as Decision;

/**
 * The trace-id ratio of a root span that is not a request's (a consumer's `process` span of
 * an event sent without a context, a socket.io event): the SDK's `TraceIdRatioBased`
 * arithmetic (the trace id's four 32-bit words xor-ed, below ratio * 2^32 - 1).
 */
export function traceIdBelowRatio(traceId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  if (ratio <= 0 || !/^[\da-f]{32}$/.test(traceId)) return false;
  let accumulated = 0;
  for (let i = 0; i < 32; i += 8) {
    accumulated = (accumulated ^ parseInt(traceId.slice(i, i + 8), 16)) >>> 0;
  }
  return accumulated < Math.floor(ratio * 0xffffffff);
}

/**
 * The SDK's sampler: parent-based (a span with a parent follows its parent's flag, remote or
 * local); a root SERVER span is a request the door admitted (`tracedAtDoor`: the http
 * instrumentation's, the only SERVER spans these processes start without a parent when the
 * door let the request in), so it is sampled without a second draw; any other root (a Kafka
 * consumer's, socket.io's) keeps the configured ratio.
 */
export function doorSampler(ratio: number): Sampler {
  return {
    shouldSample(context: Context, traceId: string, _name: string, kind: SpanKind) {
      const parent = trace.getSpanContext(context);
      if (parent && trace.isSpanContextValid(parent)) {
        const sampled = (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
        return { decision: sampled ? RECORD_AND_SAMPLED : NOT_RECORD };
      }
      if (kind === SpanKind.SERVER) return { decision: RECORD_AND_SAMPLED };
      return { decision: traceIdBelowRatio(traceId, ratio) ? RECORD_AND_SAMPLED : NOT_RECORD };
    },
    toString: () => `WayfarerDoor{root ratio ${ratio}}`,
  };
}
