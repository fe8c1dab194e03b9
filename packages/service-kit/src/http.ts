import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import type { Logger } from 'pino';
import { installErrorHandler, type NotFoundHandler } from './errors';
import { installIdentityProofCheck } from './identity';
import { installInputChecks } from './inputs';
import { REQUEST_ID_HEADER, requestIdFrom } from './logger';
import { DEPENDENCY_OF_CHECK, reportDependency } from './dependencies';
import { ensureDefaultMetrics, httpRequestRecorder, metricsText } from './metrics';
import { UNTRACED_PATHS } from './telemetry/config';

/** A named readiness check of one of the service's own stores. Throws when not ready. */
export type ReadinessCheck = () => Promise<unknown>;

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Checks run by `/readyz`, e.g. `{ postgres: () => pool.query('select 1') }`. */
  readiness?: Record<string, ReadinessCheck>;
  bodyLimit?: number;
  /** Answers unknown routes (default: a JSON 404). */
  notFound?: NotFoundHandler;
  fastify?: Omit<FastifyServerOptions, 'loggerInstance' | 'logger'>;
  /**
   * The secret that checks the gateway's identity proof on every request but `/healthz` and
   * `/readyz` (service-kit `loadIdentityProofSecret`); `false` only for the gateway itself,
   * which mints the proofs.
   */
  identityProofSecret: Buffer | false;
  /**
   * The per-request log line: 'debug' (default: services log requests at debug, their errors
   * at warn and above), or false when the caller writes its own (the gateway's access log).
   */
  requestLog?: 'debug' | false;
  /**
   * Serve `GET /metrics` (Prometheus, `metrics.ts`) on this app: true (default) for services,
   * whose port is not public; false for the gateway, which serves it on a loopback-only port
   * of its own (`startMetricsServer`). Requests are counted either way.
   */
  metricsRoute?: boolean;
  /**
   * The `route` (and `upstream`) labels of a request in `http_request_duration_seconds`;
   * default: the route pattern as registered (`unmatched` when none matched). The gateway
   * names its proxy prefix and the service that answered.
   */
  requestLabels?: (request: FastifyRequest) => RequestLabels;
}

/** Labels of a request's series in `http_request_duration_seconds`. */
export interface RequestLabels {
  route: string;
  upstream?: string;
}

/**
 * The one way to make a service's Fastify instance: pino logs with request ids (Fastify's own
 * two info lines per request replaced by one at debug, with status and time), a single
 * error shape, the gateway's identity proof required (`identity.ts`), `/healthz` (process
 * alive) and `/readyz` (own stores reachable).
 */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    genReqId: requestIdFrom,
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: true,
    logController: new QuietLogController(),
    ...options.fastify,
  });

  if (options.requestLog !== false) {
    app.addHook('onResponse', (request, reply, done) => {
      if (debugEnabled(request.log)) {
        request.log.debug(
          {
            method: request.method,
            url: request.url,
            status: reply.statusCode,
            ms: Math.round(reply.elapsedTime * 10) / 10,
          },
          'request',
        );
      }
      done();
    });
  }

  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  installRequestMetrics(app, options.requestLabels);
  reportDependencies(app, options.readiness ?? {});
  installIdentityProofCheck(app, options.identityProofSecret || null);
  installErrorHandler(app, options.notFound);
  // services only: the gateway forwards bodies and parameters as they are (its own path rules)
  if (options.identityProofSecret) installInputChecks(app);

  // probes are frequent: log them only at warn and above (or quieter if the logger is quieter)
  const quieter = ['silent', 'fatal', 'error'] as const;
  const probeLogLevel =
    quieter.find((level) => level === options.logger.level) ?? ('warn' as const);
  app.get('/healthz', { logLevel: probeLogLevel }, async () => ({
    status: 'ok',
    service: options.name,
  }));
  if (options.metricsRoute !== false) {
    app.get('/metrics', { logLevel: probeLogLevel }, async (_request, reply) => {
      const { contentType, body } = await metricsText();
      return reply.header('content-type', contentType).send(body);
    });
  }
  app.get('/readyz', { logLevel: probeLogLevel }, async (request, reply) => {
    const checks = options.readiness ?? {};
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          results[name] = 'ok';
        } catch (err) {
          ready = false;
          results[name] = err instanceof Error ? err.message : String(err);
          request.log.warn({ check: name, err }, 'readiness check failed');
        }
      }),
    );
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', service: options.name, checks: results });
  });
  return app;
}

/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route pattern a request matched (`/api/trips/:id`), or `unmatched`. */
export function routePatternOf(request: FastifyRequest): string {
  return request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
}

/**
 * Counts every answer but probes and scrapes in `http_request_duration_seconds` (by method,
 * route pattern, status), and turns on the process's default metrics (event-loop lag, heap).
 */
function installRequestMetrics(
  app: FastifyInstance,
  labels: ((request: FastifyRequest) => RequestLabels) | undefined,
): void {
  ensureDefaultMetrics();
  // off only to measure what they cost (bench/gateway/hop.bench.ts)
  if (process.env.WAYFARER_REQUEST_METRICS === 'off') return;
  const record = httpRequestRecorder();
  app.addHook('onResponse', (request, reply, done) => {
    if (!UNTRACED_PATHS.has(request.routeOptions.url ?? '')) {
      const { route, upstream } = labels ? labels(request) : { route: routePatternOf(request) };
      record(request.method, route, reply.statusCode, reply.elapsedTime / 1000, upstream);
    }
    done();
  });
}

/**
 * The readiness checks of the stores (`postgres`, `mongo`, `redis`, `minio`) also report their
 * dependency in `wayfarer_dependency_up`, while the app is open.
 */
function reportDependencies(app: FastifyInstance, checks: Record<string, ReadinessCheck>): void {
  const stops = Object.entries(checks).flatMap(([name, check]) => {
    const dependency = DEPENDENCY_OF_CHECK[name];
    if (!dependency) return [];
    return [reportDependency(dependency, () => check().then(() => true))];
  });
  if (stops.length > 0) {
    app.addHook('onClose', (_instance, done) => {
      for (const stop of stops) stop();
      done();
    });
  }
}

/**
 * Fastify's per-request logging, quieted: no "incoming request" / "request completed" lines
 * (`createHttpApp` writes one line of its own), unknown routes and client aborts at debug;
 * server errors stay at error, other stream errors at warn.
 */
class QuietLogController extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url }, 'route not found');
  }
  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      reply.log.debug('stream closed prematurely');
    } else super.streamError(error, request, reply);
  }
}

/** The logger's level or a route's lets debug lines through (pino: level value 20 and below). */
const debugEnabled = (log: FastifyBaseLogger) => (log as unknown as Logger).isLevelEnabled('debug');

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Whether an `Accept-Encoding` header value takes `encoding` (RFC 9110 12.5.3): named, or `*`,
 * with a q-value above 0; a named `;q=0` refuses it whatever `*` says.
 */
export function acceptsEncoding(header: string | string[] | undefined, encoding: string): boolean {
  if (header === undefined) return false;
  let wildcard = false;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === encoding) return accepted;
    if (name.trim() === '*') wildcard = accepted;
  }
  return wildcard;
}
