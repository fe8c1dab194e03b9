import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import { publicKeyPem } from '@wayfarer/service-kit/keys';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';

/**
 * Two gateway instances sharing one Redis: the rate limit (counted locally, synced through
 * Redis, `rate-limit.ts`) holds for their requests together. With two instances the stated
 * overshoot is what the other instance admitted locally and had not yet synced: at most half
 * the limit (`LIMIT / 2`).
 */
describe('gateway rate limit across instances', () => {
  const LIMIT = 20;
  const OVERSHOOT = LIMIT / 2;
  let upstream: FastifyInstance;
  let upstreamSeen = 0;
  const instances: FastifyInstance[] = [];
  const clients: Redis[] = [];

  beforeAll(async () => {
    upstream = Fastify();
    upstream.all('/*', async () => {
      upstreamSeen++;
      return { ok: true };
    });
    const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });
    const key = generateKeyPairSync('ed25519').privateKey;
    const secret = randomBytes(32);
    for (let i = 0; i < 2; i++) {
      const redis = new Redis(testInfra().redisUrl);
      clients.push(redis);
      const app = await buildApp({
        redis,
        logger: createLogger('gateway-test', 'silent'),
        publicKeyPem: publicKeyPem(key),
        identityProofSecret: secret,
        config: GatewayEnv.parse({
          PORT: '8080',
          REDIS_URL: testInfra().redisUrl,
          AUTH_URL: upstreamUrl,
          RATE_LIMIT_PER_MINUTE: String(LIMIT),
          AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
          LOG_LEVEL: 'silent',
        }),
      });
      await app.ready();
      instances.push(app);
    }
  });

  afterAll(async () => {
    for (const app of instances) await app.close();
    await upstream?.close();
    for (const redis of clients) await redis.quit();
  });

  const ip = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  for (const path of ['/api/login', '/api/register']) {
    it(`admits at most the limit plus the stated overshoot on ${path}, requests alternated between two instances`, async () => {
      const client = ip();
      const before = upstreamSeen;
      const codes: number[] = [];
      for (let i = 0; i < LIMIT * 3; i++) {
        const res = await instances[i % 2]!.inject({
          method: 'POST',
          url: path,
          remoteAddress: client,
          payload: {},
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().message).toMatch(/^Too many requests\. Please wait \d+ s/);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      const allowed = codes.filter((code) => code === 200).length;
      // two independent limits would admit 2 x LIMIT
      expect(allowed).toBeGreaterThanOrEqual(LIMIT);
      expect(allowed).toBeLessThanOrEqual(LIMIT + OVERSHOOT);
      expect(upstreamSeen - before).toBe(allowed);
      // once refused, refused on both instances for the rest of the window
      const firstRefused = codes.indexOf(429);
      expect(codes.slice(firstRefused + 1).every((code) => code === 429)).toBe(true);
    });
  }

  it('holds the limit exactly once the other instance has synced its counts', async () => {
    const client = ip();
    const send = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url: '/api/userDetails', remoteAddress: client });
    // half the budget on the first instance (counted locally, then synced)
    for (let i = 0; i < LIMIT / 2; i++) expect((await send(instances[0]!)).statusCode).toBe(401);
    const redis = clients[0]!;
    await expect
      .poll(async () => {
        const keys = await redis.keys(`gateway:ratelimit:*:${client}`);
        return keys.length === 1 ? Number(await redis.get(keys[0]!)) : 0;
      })
      .toBe(LIMIT / 2);
    // the rest on the second: past its own local half it decides in Redis, where the first
    // instance's counts are, so exactly LIMIT / 2 more pass
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await send(instances[1]!)).statusCode);
    expect(codes.filter((code) => code !== 429)).toHaveLength(LIMIT / 2);
  });
});
