import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import { startRedisServer, type RedisServer } from '@wayfarer/test-kit/faults';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { connectRedis } from '../src/redis';
import { STALENESS_BOUND_MS } from '../src/revocations';
import { SESSION_STORE_UNAVAILABLE_MESSAGE } from '../src/session';
import { testSessions } from './wire';

/**
 * Redis goes away for real (its process is killed) under a running gateway, then comes back:
 * session checks answer a 503 naming the cause (within the revocation copy's staleness
 * bound), public routes and logout still reach
 * their service, /readyz says redis is down, and everything works again once it is back.
 */
describe('gateway during a Redis outage', () => {
  const sessions = testSessions();
  const cookie = { cookie: sessions.cookie() };
  let redisProcess: RedisServer;
  let redis: Redis;
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    redisProcess = await startRedisServer();
    upstream = Fastify();
    upstream.all('/*', async (request) => ({ url: request.url, headers: request.headers }));
    const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });
    const logger = createLogger('gateway-test', 'silent');
    redis = connectRedis(redisProcess.url, logger); // the client main.ts makes
    await vi.waitFor(() => expect(redis.status).toBe('ready'));
    const deps = {
      redis,
      logger,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
    };
    gateway = await buildApp({
      ...deps,
      config: GatewayEnv.parse({
        PORT: '8080',
        REDIS_URL: redisProcess.url,
        AUTH_URL: upstreamUrl,
        JOURNAL_URL: upstreamUrl,
      }),
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    redis?.disconnect();
    await redisProcess?.stop();
  });

  const journal = () => gateway.inject({ url: '/api/journal/d1', headers: cookie });

  it('answers 503 naming the cause while Redis is down, and recovers when it is back', async () => {
    expect((await journal()).statusCode).toBe(200);

    await redisProcess.kill();
    // the gateway sees its connections close (at the latest, its revocation copy's PINGs go
    // unanswered for STALENESS_BOUND_MS)
    await expect
      .poll(async () => (await journal()).statusCode, { timeout: STALENESS_BOUND_MS })
      .toBe(503);

    // every signed-in call: a 503 that says why, not a 500 after seconds of retries
    for (let i = 0; i < 5; i++) {
      const res = await journal();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'service_unavailable',
        message: SESSION_STORE_UNAVAILABLE_MESSAGE,
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // without a session nothing needs Redis: still the plain 401
    expect((await gateway.inject({ url: '/api/journal/d1' })).statusCode).toBe(401);
    // login goes on to auth (the rate limiter skips its count rather than fail the request)
    const login = await gateway.inject({ method: 'POST', url: '/api/login', payload: {} });
    expect(login.statusCode).toBe(200);
    expect(login.json().url).toBe('/api/login');
    // logout goes on to auth with the identity its signature proves, so auth can revoke it
    const logout = await gateway.inject({ method: 'POST', url: '/api/logout', headers: cookie });
    expect(logout.statusCode).toBe(200);
    expect(logout.json().headers['x-user-id']).toBe('user-1');
    // the readiness probe names the store that is down
    const ready = await gateway.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.redis).toMatch(/^not connected/);

    await redisProcess.restart();

    // the client reconnects in the background: no restart of the gateway
    await expect.poll(async () => (await journal()).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await gateway.inject({ url: '/readyz' })).json().checks.redis).toBe('ok');
  });

  it('answers 503 when Redis hangs without closing its connections, and recovers when it wakes', async () => {
    await vi.waitFor(async () => expect((await journal()).statusCode).toBe(200));
    redisProcess.pause();
    try {
      // within the staleness bound the local revocation copy stops being trusted (its PINGs go
      // unanswered); then Redis is asked, and the command times out (commandTimeout) instead of
      // waiting for an answer that never comes
      await expect
        .poll(async () => (await journal()).statusCode, { timeout: STALENESS_BOUND_MS * 3 })
        .toBe(503);
      expect((await journal()).json().message).toBe(SESSION_STORE_UNAVAILABLE_MESSAGE);
    } finally {
      redisProcess.resume();
    }
    await expect.poll(async () => (await journal()).statusCode, { timeout: 10_000 }).toBe(200);
  });
});
