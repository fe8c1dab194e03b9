import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createHttpApp, type Logger } from '@wayfarer/service-kit';
import { upstreamUrls, type GatewayConfig } from './config';
import { contentSecurityPolicy } from './csp';
import { registerProxies } from './proxy';
import { registerSessionVerification } from './session';
import { registerFrontend, spaFallback } from './static';

export interface GatewayDeps {
  config: GatewayConfig;
  redis: Redis;
  logger: Logger;
  /** PEM of the session verification key (auth's public key). */
  publicKeyPem: string;
}

const AUTH_LIMITED = new Set(['/api/login', '/api/register']);

/**
 * The gateway: security headers, same-origin check for writes, rate limits (shared in Redis),
 * session verification, the proxy table, and the frontend with an SPA fallback.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const { config, redis } = deps;
  const app = createHttpApp({
    name: 'gateway',
    logger: deps.logger,
    readiness: { redis: () => redis.ping() },
    fastify: { trustProxy: config.TRUST_PROXY },
    ...(config.FRONTEND_DIST ? { notFound: spaFallback } : {}),
  });

  const csp = contentSecurityPolicy(Boolean(config.GOOGLE_MAPS_API_KEY));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', csp);
    }
    return payload;
  });

  // Cookies are SameSite=Lax; in addition a state-changing call from another origin is refused.
  app.addHook('onRequest', async (request, reply) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    const origin = request.headers.origin;
    if (!origin) return;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      host = '';
    }
    if (host !== request.headers.host) {
      return reply
        .code(403)
        .send({ error: 'forbidden', message: 'Cross-origin requests are not allowed.' });
    }
  });

  await app.register(cookie);
  await app.register(rateLimit, {
    global: true,
    redis,
    nameSpace: 'gateway:ratelimit:',
    timeWindow: '1 minute',
    max: (request) => {
      const path = request.url.split('?', 1)[0] ?? '';
      return AUTH_LIMITED.has(path)
        ? config.AUTH_RATE_LIMIT_PER_MINUTE
        : config.RATE_LIMIT_PER_MINUTE;
    },
    keyGenerator: (request) => {
      const path = request.url.split('?', 1)[0] ?? '';
      return AUTH_LIMITED.has(path) ? `auth:${request.ip}` : request.ip;
    },
    allowList: (request) => !request.url.startsWith('/api'),
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
  await registerProxies(app, upstreamUrls(config), redis, config.UPSTREAM_TIMEOUT_MS);
  if (config.FRONTEND_DIST) await registerFrontend(app, config.FRONTEND_DIST);
  return app;
}
