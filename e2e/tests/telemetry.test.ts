import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { Topics } from '@wayfarer/contracts';
import { localEnvFile, metricSamples, metricValue, parseEnvFile } from '@wayfarer/test-kit';
import { api, signUp, tripForm } from '../support/api';

/**
 * Telemetry of the whole stack, wired once in service-kit: one trip created through
 * the gateway is ONE trace in Jaeger (the gateway, trips, its MinIO calls, the relay's publish
 * and the consumers of the trip's event), and every process answers Prometheus on `/metrics`.
 * The stack's processes trace to deploy/local's Jaeger (the stack runner reads its address).
 */

const env: NodeJS.ProcessEnv = {
  ...(existsSync(localEnvFile) ? parseEnvFile(readFileSync(localEnvFile, 'utf8')) : {}),
  ...process.env,
};

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  processID: string;
  tags: { key: string; value: unknown }[];
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

async function jaeger<T>(path: string): Promise<T> {
  const base = env.JAEGER_QUERY_URL;
  if (!base) throw new Error('JAEGER_QUERY_URL is not set: start the infra with deploy/local/up');
  const res = await fetch(`${base}${path}`);
  if (res.status === 404) return { data: [] } as T; // not (yet) stored
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The traces holding a span tagged with this request id (service-kit's fastify request span). */
const tracesOfRequest = async (requestId: string, service = 'gateway') =>
  (
    await jaeger<{ data: JaegerTrace[] }>(
      `/api/traces?service=${service}&lookback=1h&limit=20&tags=${encodeURIComponent(
        JSON.stringify({ 'wayfarer.request_id': requestId }),
      )}`,
    )
  ).data;

const serviceOf = (trace: JaegerTrace, span: JaegerSpan) =>
  trace.processes[span.processID]?.serviceName;
const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;

const ports = inject('ports');

describe('telemetry', () => {
  it('one POST /api/trips is one trace: gateway, trips, MinIO, the relay and the consumers', async () => {
    const owner = await signUp('Tracer', 'telemetry');
    const requestId = `telemetry-${randomUUID()}`;
    const form = tripForm('Traced through Norway', [
      ['Bergen, Norway', '60.39', '5.32', '2026-06-01', '2026-06-03'],
    ]);
    const res = await api('/api/trips', owner, {
      method: 'POST',
      body: form,
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe(requestId);

    // the request's trace, found by the request id its spans carry
    await expect
      .poll(async () => (await tracesOfRequest(requestId)).length, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(1);
    const [{ traceID }] = (await tracesOfRequest(requestId)) as [JaegerTrace];
    // every service consuming trips.trip.v1 (notifications: a friend's new trip)
    const consumerGroups = ['journal', 'social', 'bucketlist', 'notifications'];
    // the consumers' spans arrive once the relay has published and each group has applied it
    let trace!: JaegerTrace;
    await expect
      .poll(
        async () => {
          trace = (await jaeger<{ data: JaegerTrace[] }>(`/api/traces/${traceID}`)).data[0]!;
          return new Set(trace?.spans.map((s) => serviceOf(trace, s)) ?? []);
        },
        { timeout: 45_000, interval: 500 },
      )
      .toEqual(new Set(['gateway', 'trips', ...consumerGroups]));

    const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
    const parentOf = (s: JaegerSpan) =>
      byId.get(s.references.find((r) => r.refType === 'CHILD_OF')?.spanID ?? '');
    const ancestors = (s: JaegerSpan) => {
      const chain: JaegerSpan[] = [];
      for (let p = parentOf(s); p; p = parentOf(p)) chain.push(p);
      return chain;
    };

    // one root: the gateway's server span of the request; every span hangs below it
    const roots = trace.spans.filter((s) => !parentOf(s));
    expect(roots.map((s) => serviceOf(trace, s))).toEqual(['gateway']);
    expect(trace.spans.every((s) => s.traceID === traceID)).toBe(true);

    // trips answered the gateway's call, and stored the photo in MinIO
    const tripsRequest = trace.spans.find(
      (s) => serviceOf(trace, s) === 'trips' && tag(s, 'wayfarer.request_id') === requestId,
    );
    expect(tripsRequest, 'trips request span').toBeDefined();
    expect(ancestors(tripsRequest!).some((s) => serviceOf(trace, s) === 'gateway')).toBe(true);
    const s3Port = Number(new URL(env.S3_ENDPOINT ?? 'http://127.0.0.1:59000').port);
    const minioCalls = trace.spans.filter(
      (s) =>
        serviceOf(trace, s) === 'trips' &&
        String(tag(s, 'server.port') ?? tag(s, 'net.peer.port')) === String(s3Port),
    );
    expect(minioCalls.map((s) => s.operationName)).toContain('PUT');

    // the relay published the trip's event under a span of the request's trace...
    const send = trace.spans.find(
      (s) => serviceOf(trace, s) === 'trips' && s.operationName === `send ${Topics.tripsTrip}`,
    );
    expect(send, 'the relay publish span').toBeDefined();
    expect(ancestors(send!).some((s) => s === tripsRequest)).toBe(true);
    // ...and each consumer group processed it as a child of that publish
    for (const service of consumerGroups) {
      const processed = trace.spans.find(
        (s) => serviceOf(trace, s) === service && s.operationName === `process ${Topics.tripsTrip}`,
      );
      expect(processed, `${service}'s consumer span`).toBeDefined();
      expect(parentOf(processed!)).toBe(send);
    }
  }, 120_000);

  it("a request's traceparent decides at the door: -00 makes no span anywhere, -01 one trace", async () => {
    const caller = await signUp('Sampled', 'telemetry');
    // the hot path (a GET auth answers) and Fastify's (chat's routes, through reply-from)
    const calls = [
      { method: 'GET', path: '/api/userDetails', service: 'auth' },
      { method: 'GET', path: '/api/conversations', service: 'chat' },
    ];
    const sent = [];
    for (const { method, path, service } of calls) {
      const send = async (flags: '00' | '01') => {
        const traceId = randomBytes(16).toString('hex');
        const requestId = `telemetry-${flags}-${randomUUID()}`;
        const res = await api(path, caller, {
          method,
          headers: {
            'x-request-id': requestId,
            traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}`,
          },
        });
        expect(res.status, `${method} ${path}`).toBe(200);
        return { traceId, requestId };
      };
      // the unsampled one first: by the time the sampled one's spans are in Jaeger, any span
      // of the unsampled one (ended before, exported by the same processes) would be as well
      sent.push({ service, unsampled: await send('00'), sampled: await send('01') });
    }
    for (const { service, sampled } of sent) {
      // the client's trace, continued by the gateway and the service behind it
      await expect
        .poll(
          async () => {
            const [trace] = (
              await jaeger<{ data: JaegerTrace[] }>(`/api/traces/${sampled.traceId}`)
            ).data;
            return new Set(trace?.spans.map((s) => serviceOf(trace, s)) ?? []);
          },
          { timeout: 30_000, interval: 500 },
        )
        .toEqual(new Set(['gateway', service]));
      const traces = await tracesOfRequest(sampled.requestId);
      expect(traces.map((t) => t.traceID)).toEqual([sampled.traceId]);
    }
    for (const { service, unsampled } of sent) {
      expect(await jaeger<{ data: JaegerTrace[] }>(`/api/traces/${unsampled.traceId}`)).toEqual({
        data: [],
      });
      // nor a trace of its own in the service (a fresh not-sampled context went upstream)
      expect(await tracesOfRequest(unsampled.requestId)).toEqual([]);
      expect(await tracesOfRequest(unsampled.requestId, service)).toEqual([]);
    }
  }, 90_000);

  it('every process answers /metrics; the gateway only on its loopback metrics port', async () => {
    const processes = Object.entries(ports);
    for (const [name, port] of processes) {
      const metricsPort = name === 'gateway' ? port + 1000 : port;
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status, name).toBe(200);
      const text = await res.text();
      expect(text, name).toContain('# TYPE http_request_duration_seconds histogram');
      expect(metricSamples(text, 'nodejs_eventloop_lag_seconds'), name).toHaveLength(1);
    }
    // the public port does not answer with metrics
    const publicAnswer = await (await fetch(`http://127.0.0.1:${ports.gateway}/metrics`)).text();
    expect(publicAnswer).not.toContain('# TYPE');

    const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const gateway = await scrape(ports.gateway + 1000);
    // the gateway's requests by proxy prefix and the service that answered
    expect(
      metricSamples(gateway, 'http_request_duration_seconds_count').some(
        (s) => s.labels.route === '/api/trips' && s.labels.upstream === 'trips',
      ),
    ).toBe(true);
    const trips = await scrape(ports.trips);
    expect(metricValue(trips, 'wayfarer_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(metricValue(trips, 'wayfarer_dependency_up', { dependency: 'mongo' })).toBe(1);
    expect(metricValue(trips, 'wayfarer_dependency_up', { dependency: 's3' })).toBe(1);
    expect(metricSamples(trips, 'wayfarer_cache_requests_total').length).toBeGreaterThan(0);
    const journal = await scrape(ports.journal);
    expect(
      metricSamples(journal, 'kafka_consumer_lag').some((s) => s.labels.topic === Topics.tripsTrip),
    ).toBe(true);
    expect(metricValue(journal, 'wayfarer_dependency_up', { dependency: 'kafka' })).toBe(1);
    expect(metricSamples(await scrape(ports.chat), 'wayfarer_socket_connections')).toHaveLength(1);
  });

  it("deploy/local's Prometheus scrapes every process of this stack", async () => {
    const prometheus = env.PROMETHEUS_URL;
    if (!prometheus)
      throw new Error('PROMETHEUS_URL is not set: start the infra with deploy/local/up');
    const query = encodeURIComponent(`up{job="wayfarer",stack="${inject('namespace')}"}`);
    type Result = { metric: { process: string }; value: [number, string] };
    const upByProcess = async () => {
      const res = await fetch(`${prometheus}/api/v1/query?query=${query}`);
      const { data } = (await res.json()) as { data: { result: Result[] } };
      return Object.fromEntries(data.result.map((r) => [r.metric.process, r.value[1]]));
    };
    // (scraped every 10 s: a process started a moment ago may not have been yet)
    await expect
      .poll(upByProcess, { timeout: 40_000, interval: 1000 })
      .toEqual(Object.fromEntries(Object.keys(ports).map((name) => [name, '1'])));
  }, 60_000);
});
