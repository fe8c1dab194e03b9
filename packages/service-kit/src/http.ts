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
