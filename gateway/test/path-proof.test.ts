import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, verifyIdentityProof } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { send, testSessions } from './wire';

const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);

/**
 * A real service behind the gateway, as service-kit's would check it: the identity proof
 * verified against the request as it arrived (401 when it does not hold), else an echo of the
 * method and path it received.
 */
async function startService(): Promise<{ app: FastifyInstance; url: string; seen: string[] }> {
  const app = Fastify();
  const seen: string[] = [];
  app.addHook('onRequest', (request, reply, done) => {
    seen.push(request.raw.url ?? '');
    const check = verifyIdentityProof(request.raw, secret);
    if (!check.ok)
      return void reply.code(401).send({ error: 'unauthorized', message: check.message });
    done();
  });
  app.all('/*', async (request) => ({ method: request.method, url: request.raw.url }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

/**
 * Paths with characters that URL parsers read differently (raw braces and the like, sent on the
 * wire as they are), through each of the gateway's ways upstream: its own forwarder (GET, on the
 * hot path or through Fastify), reply-from (bodies and the other methods) and chat's instance
 * choice. The service must find the proof valid: the gateway signs the path it forwards, in the
 * one canonical form both sides compute (service-kit `canonicalPath`).
 */
describe('identity proof on paths URL parsers disagree on', () => {
  const sessions = testSessions();
  let service: Awaited<ReturnType<typeof startService>>;
  let redis: Redis;
  const gateways: { name: string; app: FastifyInstance; port: number }[] = [];

  beforeAll(async () => {
    service = await startService();
    redis = new Redis(testInfra().redisUrl);
    for (const hotPath of ['on', 'off'] as const) {
      const app = await buildApp({
        config: GatewayEnv.parse({
          PORT: '8080',
          REDIS_URL: testInfra().redisUrl,
          TRIPS_URL: service.url,
          CHAT_URL: service.url,
          SOCIAL_URL: service.url,
          RATE_LIMIT_PER_MINUTE: '100000',
          HOT_PATH: hotPath,
          LOG_LEVEL: 'silent',
        }),
        redis,
        logger: createLogger('gateway-test', 'silent'),
        publicKeyPem: sessions.publicKeyPem,
        identityProofSecret: secret,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      gateways.push({ name: `HOT_PATH=${hotPath}`, app, port });
    }
  });

  afterAll(async () => {
    for (const { app } of gateways) await app.close();
    await service?.app.close();
    await redis?.quit();
  });

  const cases: { method: string; path: string; forwarded: string }[] = [
    { method: 'DELETE', path: '/api/trips/{x}', forwarded: '/api/trips/%7Bx%7D' },
    {
      method: 'POST',
      path: '/api/conversations/{}/read',
      forwarded: '/api/conversations/%7B%7D/read',
    },
    { method: 'GET', path: '/api/trips/{x}', forwarded: '/api/trips/%7Bx%7D' },
    { method: 'GET', path: '/api/conversations/{}', forwarded: '/api/conversations/%7B%7D' },
    {
      method: 'PATCH',
      path: '/api/trips/a|b^c`d"e<f>g[h]',
      forwarded: '/api/trips/a%7Cb%5Ec%60d%22e%3Cf%3Eg%5Bh%5D',
    },
    { method: 'GET', path: '/api/trips/a#b?x=1', forwarded: '/api/trips/a%23b?x=1' },
    { method: 'PUT', path: '/api/trips/a#b', forwarded: '/api/trips/a%23b' },
    { method: 'DELETE', path: '/api/trips/%7b%7D', forwarded: '/api/trips/%7B%7D' },
    { method: 'DELETE', path: '/api/trips/%c3%a9;x=1', forwarded: '/api/trips/%C3%A9;x=1' },
  ];

  for (const { method, path, forwarded } of cases) {
    it(`${method} ${path}: forwarded as ${forwarded}, its proof valid at the service`, async () => {
      const body = ['POST', 'PUT', 'PATCH'].includes(method);
      for (const gateway of gateways) {
        const res = await send(gateway.port, {
          method,
          path,
          headers: {
            cookie: sessions.cookie(),
            ...(body ? { 'content-type': 'application/json', 'content-length': 2 } : {}),
          },
          ...(body ? { chunks: [Buffer.from('{}')] } : {}),
        });
        expect({ gateway: gateway.name, status: res.status, body: JSON.parse(res.body) }).toEqual({
          gateway: gateway.name,
          status: 200,
          body: { method, url: forwarded },
        });
      }
    });
  }

  it('answers 400 itself for a path it cannot forward as it is, sending nothing upstream', async () => {
    const refused: [string, string][] = [
      ['DELETE', '/api/trips/{x}%'],
      ['DELETE', '/api/trips/a%zz'],
      ['DELETE', '/api/trips/a%2Fb'],
      ['DELETE', '/api/trips/a\\b'],
      ['GET', '/api/trips/a%00b'],
      // escapes that are not UTF-8: no route's parameter can be read from them
      ['GET', '/api/friends/%E9'],
      ['POST', '/api/friends/%ff%fe'],
    ];
    for (const gateway of gateways) {
      for (const [method, path] of refused) {
        const before = service.seen.length;
        const res = await send(gateway.port, {
          method,
          path,
          headers: { cookie: sessions.cookie() },
        });
        expect({ gateway: gateway.name, path, status: res.status }).toEqual({
          gateway: gateway.name,
          path,
          status: 400,
        });
        expect(JSON.parse(res.body)).toMatchObject({ message: expect.any(String) });
        expect(service.seen.slice(before)).toEqual([]);
      }
    }
  });
});
