import { describe, expect, it } from 'vitest';
import {
  metricSamples,
  metricValue,
  TEST_IDENTITY_PROOF_SECRET,
  throughGateway,
} from '@wayfarer/test-kit';
import { createHttpApp } from '../src/http';
import { createLogger } from '../src/logger';
import {
  cacheMetrics,
  metricsText,
  socketMetrics,
  startMetricsServer,
  storageTimer,
} from '../src/metrics';

/** A service's app: it refuses requests without the gateway's proof, but not /metrics. */
function service(redisUp: { ok: boolean }) {
  const app = createHttpApp({
    name: 'metrics-test',
    logger: createLogger('metrics-test', 'silent'),
    identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
    readiness: {
      redis: async () => {
        if (!redisUp.ok) throw new Error('redis down');
      },
      // not a dependency of the contract: no series
      index: async () => undefined,
    },
  });
  app.get('/things/:id', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('boom');
  });
  return app;
}

describe('metrics (prom-client, service-kit metrics.ts)', () => {
  it('serves /metrics without an identity proof, with per-route request histograms', async () => {
    const redis = { ok: true };
    const app = service(redis);
    const proxied = throughGateway(app);
    await proxied.inject('/things/1');
    await proxied.inject('/things/2');
    await proxied.inject('/broken');
    await proxied.inject('/no/such/route');
    await app.inject('/healthz'); // probes are not counted

    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    const count = (route: string, status: string) =>
      metricValue(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route,
        status_code: status,
      });
    // the route pattern, never the raw URL
    expect(count('/things/:id', '200')).toBe(2);
    expect(count('/broken', '500')).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    const routes = metricSamples(text, 'http_request_duration_seconds_count').map(
      (s) => s.labels.route,
    );
    expect(routes).not.toContain('/things/1');
    expect(routes).not.toContain('/healthz');
    // the default Node metrics
    expect(metricSamples(text, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    expect(metricSamples(text, 'nodejs_heap_size_used_bytes')).toHaveLength(1);

    // readiness checks of the contract's dependencies report them, the others do not
    expect(metricValue(text, 'wayfarer_dependency_up', { dependency: 'redis' })).toBe(1);
    redis.ok = false;
    const down = (await app.inject('/metrics')).body;
    expect(metricValue(down, 'wayfarer_dependency_up', { dependency: 'redis' })).toBe(0);
    expect(metricSamples(down, 'wayfarer_dependency_up').map((s) => s.labels.dependency)).toEqual([
      'redis',
    ]);
    // a closed app reports no more
    await app.close();
    const other = service({ ok: true });
    await other.close();
    const after = (await metricsText()).body;
    expect(metricSamples(after, 'wayfarer_dependency_up')).toEqual([]);
  });

  it('reads caches, sockets and timed operations when scraped', async () => {
    const stats = { hits: 3, misses: 1 };
    const stopCache = cacheMetrics('things', () => ({ hit: stats.hits, miss: stats.misses }));
    let open = 2;
    const stopSockets = socketMetrics(() => open);
    const timed = storageTimer();
    await timed('put', async () => 'stored');
    await expect(timed('put', () => Promise.reject(new Error('refused')))).rejects.toThrow();

    let text = (await metricsText()).body;
    expect(
      metricValue(text, 'wayfarer_cache_requests_total', { cache: 'things', result: 'hit' }),
    ).toBe(3);
    expect(metricValue(text, 'wayfarer_socket_connections')).toBe(2);
    const puts = (outcome: string) =>
      metricValue(text, 'wayfarer_storage_operation_duration_seconds_count', {
        operation: 'put',
        outcome,
      });
    expect(puts('ok')).toBe(1);
    expect(puts('error')).toBe(1);

    stats.hits = 10;
    open = 5;
    text = (await metricsText()).body;
    expect(
      metricValue(text, 'wayfarer_cache_requests_total', { cache: 'things', result: 'hit' }),
    ).toBe(10);
    expect(metricValue(text, 'wayfarer_socket_connections')).toBe(5);

    stopCache();
    stopSockets();
    text = (await metricsText()).body;
    expect(metricSamples(text, 'wayfarer_cache_requests_total')).toEqual([]);
    expect(metricValue(text, 'wayfarer_socket_connections')).toBe(0); // none read: none open
  });

  it("serves the gateway's metrics on a listener of their own, and nothing else there", async () => {
    const server = await startMetricsServer({
      port: 0,
      logger: createLogger('metrics-test', 'silent'),
    });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
      expect(
        (await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status,
      ).toBe(404);
    } finally {
      await server.close();
    }
  });
});
