import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createHttpApp, type Logger } from '@wayfarer/service-kit';
import { registerCompression } from './compression';
import { upstreamUrls, type GatewayConfig } from './config';
import { contentSecurityPolicy } from './csp';
import { normaliseRequestUrl } from './paths';
import { registerProxies } from './proxy';
import { routeFor } from './routes';
import { registerSessionVerification } from './session';
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

/** Raw requests whose path was refused by `normaliseRequestUrl`, with the reason. */
const refusedPaths = new WeakMap<object, string>();

const pathOf = (url: string) => url.split('?', 1)[0] ?? '';
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The gateway: path normalisation, security headers, same-origin check for writes, rate limits
 * (shared in Redis), session verification, the proxy table, and the frontend with an SPA
 * fallback.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const { config, redis } = deps;
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
    fastify: {
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

  app.addHook('onRequest', async (request, reply) => {
    const refused = refusedPaths.get(request.raw);
    if (refused) return reply.code(400).send({ error: 'bad_request', message: refused });
  });

  const csp = contentSecurityPolicy(Boolean(config.GOOGLE_MAPS_API_KEY));
  app.addHook('onSend', async (request, reply, payload) => {
    // personal answers (everything under /api: sessions, trips, profiles) are never stored by
    // a shared or browser cache, unless the service chose its own policy (photos, avatars)
    if (isApi(pathOf(request.url)) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', csp);
    }
    return payload;
  });

  // Cookies are SameSite=Lax; in addition a state-changing call whose Origin is not exactly
  // ours (scheme, host and port; X-Forwarded-Proto/Host count only from a trusted proxy) is
  // refused, and so is `Origin: null` (sandboxed frames, some redirects). No Origin at all
  // (non-browser clients) passes: the cookie's SameSite guards the browser case.
  app.addHook('onRequest', async (request, reply) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (originOf(origin) === null || originOf(origin) !== ownOrigin(request)) {
      return reply
        .code(403)
        .send({ error: 'forbidden', message: 'Cross-origin requests are not allowed.' });
    }
  });

  await app.register(cookie);
  // before any route: it hooks each route as it is added (proxied JSON, the gateway's own)
  await registerCompression(app);
  await app.register(rateLimit, {
    global: true,
    redis,
    nameSpace: 'gateway:ratelimit:',
    timeWindow: '1 minute',
    // request.url is the normalised path (rewriteUrl), and the route decides the limit
    max: (request) =>
      routeFor(request.url)?.rateLimit === 'auth'
        ? config.AUTH_RATE_LIMIT_PER_MINUTE
        : config.RATE_LIMIT_PER_MINUTE,
    keyGenerator: (request) =>
      routeFor(request.url)?.rateLimit === 'auth' ? `auth:${request.ip}` : request.ip,
    allowList: (request) => !isApi(pathOf(request.url)),
    // Redis down: let the request through rather than fail it (the Redis client fails fast,
    // see redis.ts, so this adds no wait); the session check answers 503 where one is needed
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'too_many_requests',
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} s and try again.`,
    }),
  });

  // What the browser needs to know at run time (never secrets: a Maps key is public by nature).
  app.get('/runtime-config.json', async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .send({ googleMapsApiKey: config.GOOGLE_MAPS_API_KEY ?? null }),
  );

  await registerSessionVerification(app, deps.publicKeyPem);
  await registerProxies(
    app,
    upstreamUrls(config),
    redis,
    config.UPSTREAM_TIMEOUT_MS,
    deps.identityProofSecret,
  );
  if (config.FRONTEND_DIST) await registerFrontend(app, config.FRONTEND_DIST);
  return app;
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

/** The gateway's own origin as the client sees it (a trusted proxy's forwarded proto and host). */
function ownOrigin(request: FastifyRequest): string | null {
  return originOf(`${request.protocol}://${request.host}`);
}
