import { createServer, type Server } from 'node:http';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';
import type { Logger } from 'pino';

/**
 * The Prometheus metrics of a process (prom-client), served as `GET /metrics`: by every
 * service on its own port (`createHttpApp`; services are not public, the gateway forwards only
 * `/api/*` and the socket.io upgrade), and by the gateway on a second, loopback-only port
 * (`startMetricsServer`). The names are the contract the alert rules read
 * (`deploy/prometheus/README.md`); every metric is made here or through these helpers, once per
 * process (several services booted in one test process share the registry).
 */
export const metricsRegistry = new Registry();

let defaultsOn = false;

/**
 * prom-client's default metrics (CPU, heap, GC, event-loop lag as `nodejs_eventloop_lag_*`,
 * handles), once per process.
 */
export function ensureDefaultMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** A counter of the process registry, made on first use (the same one for every caller). */
export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Counter<L>;
  return new Counter({ ...config, registers: [metricsRegistry] });
}

/** A gauge of the process registry, made on first use (the same one for every caller). */
export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Gauge<L>;
  return new Gauge({ ...config, registers: [metricsRegistry] });
}

/** A histogram of the process registry, made on first use (the same one for every caller). */
export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ ...config, registers: [metricsRegistry] });
}

/** Seconds buckets of request and operation durations (0.5 s is the read budget of the rules). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type HttpLabel = 'method' | 'route' | 'status_code' | 'upstream';

/**
 * Records one HTTP answer in `http_request_duration_seconds{method, route, status_code}` (and
 * `upstream` at the gateway: the service that answered, or `gateway`): `route` is the route
 * pattern (`/api/trips/:id`; `unmatched` when none matched), never the raw URL, so the series
 * stay few. Its `_count` is the request rate, the 5xx share of it the error rate. The labelled
 * children are kept, so an answer costs a map lookup and a bucket search, not prom-client's
 * label hashing.
 */
export function httpRequestRecorder(): (
  method: string,
  route: string,
  status: number,
  seconds: number,
  upstream?: string,
) => void {
  const metric = histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code', 'upstream'] as const,
    buckets: DURATION_BUCKETS,
  });
  const children = new Map<string, Histogram.Internal<HttpLabel>>();
  return (method, route, status, seconds, upstream) => {
    const key = `${method} ${status} ${upstream ?? ''} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels: Partial<Record<HttpLabel, string>> = {
        method,
        route,
        status_code: String(status),
      };
      if (upstream) labels.upstream = upstream;
      child = metric.labels(labels);
      children.set(key, child);
    }
    child.observe(seconds);
  };
}

/**
 * The reads of an in-process cache as `wayfarer_cache_requests_total{cache, result}`, taken
 * from the cache's own counters when scraped (nothing added to its read path): `stats`
 * returns the running count per result (`hit`, `miss`, and e.g. `shared`). Its hit ratio is
 * `rate(...{result="hit"}[5m]) / rate(...[5m])`. Returns the function that stops reading it.
 */
export function cacheMetrics(cache: string, stats: () => Record<string, number>): () => void {
  const readers = cacheReaders();
  const read = () => ({ cache, counts: stats() });
  readers.add(read);
  return () => readers.delete(read);
}

type CacheReader = () => { cache: string; counts: Record<string, number> };
let cacheReaderSet: Set<CacheReader> | null = null;

function cacheReaders(): Set<CacheReader> {
  if (cacheReaderSet) return cacheReaderSet;
  const readers = new Set<CacheReader>();
  cacheReaderSet = readers;
  counter({
    name: 'wayfarer_cache_requests_total',
    help: 'Reads of an in-process cache, by cache and result (hit, miss, ...)',
    labelNames: ['cache', 'result'] as const,
    collect() {
      this.reset();
      for (const read of readers) {
        const { cache, counts } = read();
        for (const [result, n] of Object.entries(counts)) this.inc({ cache, result }, n);
      }
    },
  });
  return readers;
}

/**
 * The duration of a named operation in `metric` (labels `operation` and `outcome`: ok or
 * error): `timed(op, 'put', () => client.putObject(...))`.
 */
export type OperationTimer = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

function operationTimer(name: string, help: string): OperationTimer {
  const metric = histogram({
    name,
    help,
    labelNames: ['operation', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
  });
  return async (operation, run) => {
    const end = metric.startTimer({ operation });
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      end({ outcome: 'error' });
      throw err;
    }
  };
}

/** Object-store (MinIO, S3) calls: `wayfarer_storage_operation_duration_seconds`. */
export function storageTimer(): OperationTimer {
  return operationTimer(
    'wayfarer_storage_operation_duration_seconds',
    'Time of an object store (S3, MinIO) call, by operation and outcome',
  );
}

/** Image pipeline steps: `wayfarer_image_pipeline_duration_seconds`. */
export function imageTimer(): OperationTimer {
  return operationTimer(
    'wayfarer_image_pipeline_duration_seconds',
    'Time of an image pipeline step (decode, resize, encode a variant), by step and outcome',
  );
}

/** What a gauge reader returns: one value, or labelled values (a promise of either). */
export type GaugeReading<L extends string> =
  number | { labels: Partial<Record<L, string>>; value: number }[];

/**
 * A gauge read when scraped: `read` returns its value, or a list of labelled values (or a
 * promise of them: keep it quick, a scrape waits for it). Several readers of one gauge (e.g.
 * one per consumer group) add their series. Returns a function that stops reading (its
 * series go), for what a service closes.
 */
export function gaugeReader<L extends string>(
  config: { name: string; help: string; labelNames?: readonly L[] },
  read: () => GaugeReading<L> | Promise<GaugeReading<L>>,
): () => void {
  const readers = gaugeReaders(config);
  readers.add(read as Reader);
  return () => readers.delete(read as Reader);
}

type Reader = () => GaugeReading<string> | Promise<GaugeReading<string>>;
const readersByGauge = new Map<string, Set<Reader>>();

function gaugeReaders(config: {
  name: string;
  help: string;
  labelNames?: readonly string[];
}): Set<Reader> {
  let readers = readersByGauge.get(config.name);
  if (readers) return readers;
  const own = new Set<Reader>();
  readers = own;
  readersByGauge.set(config.name, own);
  gauge({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames ?? [],
    async collect() {
      const readings = await Promise.all([...own].map((read) => read()));
      this.reset();
      for (const value of readings) {
        if (typeof value === 'number') this.set(value);
        else for (const v of value) this.set(v.labels, v.value);
      }
    },
  });
  return readers;
}

/**
 * The sockets (socket.io connections) open on this instance, read when scraped, as
 * `wayfarer_socket_connections`. Returns the function that stops reading it.
 */
export function socketMetrics(open: () => number): () => void {
  return gaugeReader(
    { name: 'wayfarer_socket_connections', help: 'Socket.io connections open on this instance' },
    open,
  );
}

/** The text of every metric of the process, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/**
 * Serves `GET /metrics` on its own listener (the gateway's: its public port must not answer
 * it). Loopback by default; other paths get a 404.
 */
export async function startMetricsServer(options: {
  port: number;
  host?: string;
  logger: Logger;
}): Promise<{ port: number; close(): Promise<void> }> {
  ensureDefaultMetrics();
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?', 1)[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err: unknown) => {
        options.logger.warn({ err }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
