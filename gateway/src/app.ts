import { createServer, type ServerOptions } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import {
  createHttpApp,
  IdentityProofMinter,
  infoLineWriter,
  routePatternOf,
  type Logger,
} from '@wayfarer/service-kit';
import { addAnswerHeaders } from './answer-headers';
import { registerCompression } from './compression';
import { chatSocketUrls, publicOrigin, upstreamUrls, type GatewayConfig } from './config';
import { contentSecurityPolicy } from './csp';
import { normaliseRequestUrl } from './paths';
import { ChatInstances, registerChatSocket } from './chat';
import { handedOverOf } from './hand-over';
import { createHotPath, type HotPath } from './hot-path';
import { registerProxies, upstreamTimingOf } from './proxy';
import { SharedRateLimiter, type RateDecision } from './rate-limit';
import { startRevocationCache } from './revocations';
import { dropRestOfBody } from './body-limit';
import {
  compressedBodyMessage,
  DEFAULT_MAX_BODY_BYTES,
  maxBodyBytesFor,
  PROXY_ROUTES,
  routeFor,
  type RateLimitKind,
} from './routes';
import { registerSessionDecorator, registerSessionVerifier } from './session';
import { isSharePagePath, registerSharePage } from './share-page';
import { registerFrontend, spaFallback } from './static';

export interface GatewayDeps {
  config: GatewayConfig;
  redis: Redis;
  logger: Logger;
  /** PEM of the session verification key (auth's public key). */
  publicKeyPem: string;
  /** Signs the identity proof on every proxied request (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
}

/** What Fastify passes its serverFactory (its own options, defaults applied). */
interface FastifyServerSetup {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
}

/** Raw requests whose path was refused by `normaliseRequestUrl`, with the reason. */
const refusedPaths = new WeakMap<object, string>();

const pathOf = (url: string) => url.split('?', 1)[0] ?? '';
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

const setReplyHeader = (reply: FastifyReply, name: string, value: string) => {
  reply.header(name, value);
};

/** Rate-limit windows (the limits are per minute). */
const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The gateway: path normalisation, security headers, same-origin check for writes, rate limits
 * (shared in Redis, counted locally: `rate-limit.ts`), session verification (cached verifier,
 * local copy of the revoked sessions: `revocations.ts`), the proxy table, the frontend with an
 * SPA fallback, and one access-log line per request.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const { config, redis } = deps;
  let hotPath: HotPath | null = null;
  const app = createHttpApp({
    name: 'gateway',
    logger: deps.logger,
    readiness: {
      redis: async () => {
        if (redis.status !== 'ready') throw new Error(`not connected (${redis.status})`);
        await redis.ping();
      },
    },
    identityProofSecret: false, // the gateway mints the proofs the services check
    requestLog: false, // its own access log below
    metricsRoute: false, // on its own loopback port (main.ts), never the public one
    // in http_request_duration_seconds: the proxy prefix (its routes are `/api/trips` and
    // `/api/trips/*`) and which service answered, `gateway` when it answered itself
    requestLabels: (request) => ({
      route: routePatternOf(request).replace(/\/\*$/, '') || '/',
      upstream: upstreamTimingOf(request)?.service ?? 'gateway',
    }),
    fastify: {
      // the server's requests are offered to the hot path first (`hot-path.ts`), the rest go
      // to Fastify; the server set up as Fastify sets up its own
      serverFactory: (handler, fastifyOptions) => {
        const options = fastifyOptions as FastifyServerSetup;
        const server = createServer(options.http ?? {}, (req, res) => {
          if (hotPath === null || !hotPath(req, res, handler)) handler(req, res);
        });
        server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
        server.requestTimeout = options.requestTimeout ?? 0;
        server.setTimeout(options.connectionTimeout ?? 0);
        return server;
      },
      trustProxy: config.TRUST_PROXY,
      // before routing: every later step (route, limits, upstream path) sees the canonical path
      rewriteUrl: (req) => {
        const normalised = normaliseRequestUrl(req.url ?? '/');
        if (normalised.ok) return normalised.url;
        refusedPaths.set(req, normalised.message);
        return '/';
      },
    },
    ...(config.FRONTEND_DIST ? { notFound: spaFallback } : {}),
  });

  // One line per request, at info: what was asked, how it ended, which service answered and
  // how long it took to (upstream response headers), and the whole time at the gateway. Written
  // by service-kit's hot-path line writer: pino's JSON, without pino's per-line cost.
  const accessLog = infoLineWriter(deps.logger, 'request');
  app.addHook('onResponse', (request, reply, done) => {
    const upstream = upstreamTimingOf(request);
    accessLog({
      reqId: request.id,
      method: request.method,
      path: pathOf(request.url),
      status: reply.statusCode,
      upstream: upstream?.service,
      upstreamMs: upstream?.ms,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    });
    done();
  });

  const csp = contentSecurityPolicy(Boolean(config.GOOGLE_MAPS_API_KEY));
  // (a callback hook, not an async one: it runs on every answer, and a promise per hook per
  // request is measurable at the gateway's rate)
  app.addHook('onSend', (request, reply, payload, done) => {
    addAnswerHeaders(reply, setReplyHeader, {
      api: isApi(pathOf(request.url)),
      hasCacheControl: reply.hasHeader('cache-control'),
      contentType: reply.getHeader('content-type'),
      csp,
    });
    done(null, payload);
  });

  // before any route: it hooks each route as it is added (proxied JSON, the gateway's own)
  await registerCompression(app);
  // Rate limits per client address on /api, the login/register one stricter, share links'
  // reads and pages a count of their own. request.url is the normalised path
  // (rewriteUrl), and the route decides the limit.
  const limiter = new SharedRateLimiter(redis, deps.logger, {
    prefix: 'gateway:ratelimit:',
    windowMs: RATE_LIMIT_WINDOW_MS,
  });
  app.addHook('onClose', async () => limiter.close());
  const ownLimits: Record<RateLimitKind, number> = {
    auth: config.AUTH_RATE_LIMIT_PER_MINUTE,
    shared: config.SHARED_RATE_LIMIT_PER_MINUTE,
  };
  const refuseRate = (reply: FastifyReply, decision: RateDecision) => {
    const seconds = Math.ceil(decision.retryAfterMs / 1000);
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({
        error: 'too_many_requests',
        message: `Too many requests. Please wait ${seconds} s and try again.`,
      });
  };

  // Every request's checks before routing to a handler, in one hook: the path refused by
  // rewriteUrl (400), the same-origin rule for writes (403), then the rate limit of /api (429).
  // A callback hook that waits only when Redis must be asked: most requests are decided here
  // without a promise.
  const rateKindOf = (path: string): RateLimitKind | undefined =>
    isApi(path) ? routeFor(path)?.rateLimit : 'shared';
  const rateKeyOf = (kind: RateLimitKind | undefined, ip: string) => (kind ? `${kind}:${ip}` : ip);
  const rateLimitOf = (kind: RateLimitKind | undefined) =>
    kind ? ownLimits[kind] : config.RATE_LIMIT_PER_MINUTE;
  app.addHook('onRequest', (request, reply, done) => {
    // forwarded by the hot path, its rate limit counted there
    if (handedOverOf(request.raw)) return done();
    const refused = refusedPaths.get(request.raw);
    if (refused) {
      reply.code(400).send({ error: 'bad_request', message: refused });
      return;
    }
    if (!sameOriginOrNone(request)) {
      reply
        .code(403)
        .send({ error: 'forbidden', message: 'Cross-origin requests are not allowed.' });
      return;
    }
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      // browsers never compress what they send, and a compressed body could hide a bomb
      // behind a small declared length: refused, its body dropped so the client reads this
      const route = routeFor(pathOf(request.url));
      dropRestOfBody(
        request.raw,
        reply.raw,
        route ? maxBodyBytesFor(route) : DEFAULT_MAX_BODY_BYTES,
      );
      reply.code(415).send({
        error: 'unsupported_media_type',
        message: compressedBodyMessage(encoding),
      });
      return;
    }
    const path = pathOf(request.url);
    const api = isApi(path);
    if (!api && !isSharePagePath(path)) return done();
    const kind = rateKindOf(path);
    const decision = limiter.hit(rateKeyOf(kind, request.ip), rateLimitOf(kind));
    const decide = (d: RateDecision) => (d.allowed ? done() : void refuseRate(reply, d));
    if (decision instanceof Promise) decision.then(decide, done);
    else decide(decision);
  });

  // What the browser needs to know at run time (never secrets: a Maps key is public by nature).
  app.get('/runtime-config.json', async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .send({ googleMapsApiKey: config.GOOGLE_MAPS_API_KEY ?? null }),
  );

  registerSessionDecorator(app);
  const revocations = startRevocationCache(redis, deps.logger);
  app.addHook('onClose', async () => revocations.close());
  const verifyToken = await registerSessionVerifier(app, deps.publicKeyPem);
  const sessions = { verifyToken, revocations, redis };
  const proofs = new IdentityProofMinter(deps.identityProofSecret);
  const chat = new ChatInstances(chatSocketUrls(config), app.log);
  app.addHook('onClose', async () => chat.close());
  const forwarderOf = await registerProxies(
    app,
    upstreamUrls(config),
    sessions,
    config.UPSTREAM_TIMEOUT_MS,
    proofs,
    chat,
  );
  if (config.HOT_PATH === 'on') {
    hotPath = createHotPath({
      routes: PROXY_ROUTES,
      trustProxy: config.TRUST_PROXY,
      sessions,
      admits: (kind, ip) => limiter.admitsLocally(rateKeyOf(kind, ip), rateLimitOf(kind)),
      forwarderOf,
      proofs,
      accessLog,
      csp,
    });
  }
  registerChatSocket(app, chat, sessions, proofs, ownOrigin);
  if (config.FRONTEND_DIST) {
    await registerFrontend(app, config.FRONTEND_DIST);
    registerSharePage(app, {
      dist: config.FRONTEND_DIST,
      tripsUrl: config.TRIPS_URL,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      proofs,
      origin: publicOrigin(config),
    });
  }
  return app;
}

/**
 * Cookies are SameSite=Lax; in addition a state-changing call whose Origin is not exactly ours
 * (scheme, host and port; X-Forwarded-Proto/Host count only from a trusted proxy) is refused,
 * and so is `Origin: null` (sandboxed frames, some redirects). No Origin at all (non-browser
 * clients) passes: the cookie's SameSite guards the browser case.
 */
function sameOriginOrNone(request: FastifyRequest): boolean {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const claimed = originOf(origin);
  return claimed !== null && claimed === ownOrigin(request);
}

/** `scheme://host[:port]` of an Origin header value, or null when it is not a URL (`null`). */
function originOf(value: string): string | null {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The gateway's own origin as the client sees it (a trusted proxy's forwarded proto and host),
 * for the same-origin check only: it is compared with the Origin the same browser sent, never
 * written into an answer (absolute URLs come from PUBLIC_URL, `publicOrigin`).
 */
function ownOrigin(request: FastifyRequest): string | null {
  return originOf(`${request.protocol}://${request.host}`);
}
