import { randomBytes } from 'node:crypto';
import type * as Http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { SpanKind } from '@opentelemetry/api';
import { NodeSDK, type NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doorSampler } from '../src/telemetry/sampling';
import { httpInstrumentationBehindDoor } from '../src/telemetry/sdk';

/**
 * The door in front of the real http instrumentation and SDK: a request without a
 * `traceparent` is drawn for once (the instrumentation's own hook drew again, so 10% sampled
 * became 1%), a `traceparent` decides alone, and what the door admitted is recorded.
 */

interface EndedSpan {
  kind: SpanKind;
  spanContext(): { traceId: string };
}
const ended: EndedSpan[] = [];
const processor = {
  onStart: () => undefined,
  onEnd: (span: EndedSpan) => void ended.push(span),
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
} as unknown as NonNullable<NodeSDKConfiguration['spanProcessors']>[number];

/** The door's draws, in order (1: not traced). */
let draws: number[] = [];
let drawn = 0;
const random = () => {
  drawn++;
  return draws.shift() ?? 1;
};

const sdk = new NodeSDK({
  serviceName: 'door-test',
  sampler: doorSampler(0.5),
  spanProcessors: [processor],
  instrumentations: [httpInstrumentationBehindDoor(0.5, random)],
  metricReaders: [],
  logRecordProcessors: [],
});
let base = '';
let close = () => undefined as void;

beforeAll(async () => {
  sdk.start();
  // patched as it is required after the start (as startTracing does)
  const http = createRequire(import.meta.url)('node:http') as typeof Http;
  const server = http.createServer((_req: IncomingMessage, res: ServerResponse) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => void server.close();
});
afterAll(async () => {
  close();
  await sdk.shutdown();
});

const send = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/anything`, { headers });
  expect(await res.text()).toBe('ok');
};
const serverSpans = () => ended.filter((s) => s.kind === SpanKind.SERVER);

describe('the door in front of the http instrumentation', () => {
  it('draws once per request without a traceparent, and records what it admitted', async () => {
    const before = serverSpans().length;
    drawn = 0;
    // admitted, not, admitted, not (ratio 0.5)
    draws = [0.4, 0.6, 0.4, 0.6];
    for (let i = 0; i < 4; i++) await send();
    await expect.poll(() => serverSpans().length - before).toBe(2);
    expect(drawn).toBe(4);
  });

  it('follows a traceparent without drawing: -00 makes no span, -01 one', async () => {
    const before = serverSpans().length;
    drawn = 0;
    draws = [];
    const unsampled = randomBytes(16).toString('hex');
    const sampled = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    await send({ traceparent: `00-${unsampled}-${parent}-00` });
    await send({ traceparent: `00-${sampled}-${parent}-01` });
    await expect.poll(() => serverSpans().length - before).toBe(1);
    const traces = serverSpans()
      .slice(before)
      .map((s) => s.spanContext().traceId);
    expect(traces).toEqual([sampled]);
    expect(drawn).toBe(0);
  });
});
