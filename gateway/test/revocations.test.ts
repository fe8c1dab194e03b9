import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import {
  startRedisServer,
  startTcpProxy,
  type RedisServer,
  type TcpProxy,
} from '@wayfarer/test-kit/faults';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { connectRedis } from '../src/redis';
import { STALENESS_BOUND_MS } from '../src/revocations';
import { revokeAsAuthDoes } from './revoke';
import { testSessions } from './wire';

/**
 * The gateway's local copy of the revoked sessions (`revocations.ts`), against a redis-server
 * of the test's own: a session check costs no Redis command once the copy is live; a
 * revocation is refused within STALENESS_BOUND_MS; one written while the gateway's connections
 * were down is picked up when they come back; and all of it again after Redis restarts.
 */
describe('gateway revocation copy', () => {
  const sessions = testSessions();
  const newSession = () => {
    const jti = randomUUID();
    return { jti, cookie: { cookie: sessions.cookie('user-1', jti) } };
  };
  let redisProcess: RedisServer;
  /** A TCP hop between the gateway and Redis that the test can cut (Redis itself stays up). */
  let link: TcpProxy;
  let linkUrl: string;
  let redis: Redis;
  let probe: Redis;
  let upstream: FastifyInstance;
  let gateway: FastifyInstance;

  const statusWith = async (cookie: { cookie: string }) =>
    (await gateway.inject({ url: '/api/journal/d1', headers: cookie })).statusCode;

  /** How many EXISTS commands Redis has run (the per-request fallback). */
  const existsCalls = async () => {
    const info = await probe.info('commandstats');
    return Number(/cmdstat_exists:calls=(\d+)/.exec(info)?.[1] ?? 0);
  };

  /** Polls until 20 session checks in a row cost no EXISTS: the local copy is live. */
  const untilLocal = async (cookie: { cookie: string }, expected: number) =>
    expect
      .poll(
        async () => {
          const before = await existsCalls();
          for (let i = 0; i < 20; i++) expect(await statusWith(cookie)).toBe(expected);
          return (await existsCalls()) - before;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(0);

  beforeAll(async () => {
    redisProcess = await startRedisServer();
    link = await startTcpProxy();
    linkUrl = link.route(redisProcess.url);
    probe = new Redis(redisProcess.url, { maxRetriesPerRequest: 0 });
    probe.on('error', () => {}); // down while the test kills redis-server; back after
    upstream = Fastify();
    upstream.all('/*', async (request) => ({ url: request.url }));
    const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });
    const logger = createLogger('gateway-test', 'silent');
    redis = connectRedis(linkUrl, logger); // the client main.ts makes
    gateway = await buildApp({
      redis,
      logger,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
      config: GatewayEnv.parse({
        PORT: '8080',
        REDIS_URL: linkUrl,
        JOURNAL_URL: upstreamUrl,
        LOG_LEVEL: 'silent',
      }),
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    redis?.disconnect();
    probe?.disconnect();
    await link?.close();
    await redisProcess?.stop();
  });

  it('checks sessions without a Redis command per request, and refuses a revocation within the bound', async () => {
    const session = newSession();
    await untilLocal(session.cookie, 200);

    await revokeAsAuthDoes(probe, session.jti);
    await expect
      .poll(() => statusWith(session.cookie), { timeout: STALENESS_BOUND_MS, interval: 10 })
      .toBe(401);
    // other sessions are untouched, and still checked locally
    await untilLocal(newSession().cookie, 200);
  });

  it('picks up a revocation written while its connections to Redis were down', async () => {
    const session = newSession();
    await untilLocal(session.cookie, 200);

    link.cut();
    // the copy is not trusted without its subscription: Redis is asked, and cannot be (503)
    await expect.poll(() => statusWith(session.cookie), { timeout: STALENESS_BOUND_MS }).toBe(503);
    await revokeAsAuthDoes(probe, session.jti); // the gateway cannot hear this message
    link.restore();

    // reconnected and reloaded (SCAN): refused, and from the local copy
    await untilLocal(session.cookie, 401);
    await untilLocal(newSession().cookie, 200);
  });

  it('keeps refusing revoked sessions within the bound after Redis restarts', async () => {
    const session = newSession();
    await untilLocal(session.cookie, 200);

    await redisProcess.kill();
    try {
      // (how fast a dead Redis gives 503 is redis-outage.test.ts's subject: wait generously here)
      await expect.poll(() => statusWith(session.cookie), { timeout: 10_000 }).toBe(503);
    } finally {
      await redisProcess.restart();
    }
    await untilLocal(session.cookie, 200);

    await revokeAsAuthDoes(probe, session.jti);
    await expect
      .poll(() => statusWith(session.cookie), { timeout: STALENESS_BOUND_MS, interval: 10 })
      .toBe(401);
    await untilLocal(session.cookie, 401);
  });

  it('stops trusting its copy within the bound when Redis freezes, and trusts it again after', async () => {
    const session = newSession();
    await untilLocal(session.cookie, 200);
    redisProcess.pause();
    try {
      // no PING answered for STALENESS_BOUND_MS: Redis is asked, and does not answer within the
      // client's command timeout (503)
      await expect.poll(() => statusWith(session.cookie), { timeout: 10_000 }).toBe(503);
    } finally {
      redisProcess.resume();
    }
    await untilLocal(session.cookie, 200);
  });
});
