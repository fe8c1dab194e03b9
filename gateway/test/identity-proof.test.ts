import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityHeaders, SESSION_COOKIE } from '@wayfarer/contracts';
import { createLogger, verifyIdentityProof } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { testSessions, testConfig } from './wire';

const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);

interface Received {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** A real upstream that checks nothing and answers with what it received. */
async function startEcho(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.all('/*', async (request) => ({
    method: request.method,
    url: request.url,
    headers: request.headers,
  }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

/** What the service behind the gateway would conclude from what it received. */
const verify = (received: Received) => verifyIdentityProof(received, secret);

describe('gateway identity proof', () => {
  const sessions = testSessions();
  let echo: { app: FastifyInstance; url: string };
  let gateway: FastifyInstance;
  let redis: Redis;

  beforeAll(async () => {
    echo = await startEcho();
    redis = new Redis(testInfra().redisUrl);
    const config = testConfig({
      AUTH_URL: echo.url,
      TRIPS_URL: echo.url,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      LOG_LEVEL: 'silent',
    });
    gateway = await buildApp({
      config,
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: secret,
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await echo?.app.close();
    await redis?.quit();
  });

  it('proves the verified session and the client address to the service, for this request', async () => {
    const jti = randomUUID();
    const res = await gateway.inject({
      url: '/api/trips/t1?view=full',
      remoteAddress: '203.0.113.7',
      headers: {
        cookie: sessions.cookie('user-1', jti),
        // a client's attempt to bring its own identity and proof
        [IdentityHeaders.userId]: 'attacker',
        [IdentityHeaders.clientIp]: '10.0.0.1',
        [IdentityHeaders.proof]: 'v1.9999999999.forged',
      },
    });
    expect(res.statusCode).toBe(200);
    const received = res.json<Received>();
    const check = verify(received);
    expect(check).toMatchObject({
      ok: true,
      identity: { userId: 'user-1', sessionId: jti, clientIp: '203.0.113.7' },
    });
    // bound to what was forwarded: not valid for another route
    expect(verify({ ...received, url: '/api/mytrips' }).ok).toBe(false);
  });

  it('proves an empty user and the client address on public routes (auth throttles on it)', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '203.0.113.8',
      headers: {
        'content-type': 'application/json',
        // without TRUST_PROXY, a client-sent X-Forwarded-For changes nothing
        'x-forwarded-for': '198.51.100.1',
      },
      payload: { email: 'a@b.co', password: 'x' },
    });
    const received = res.json<Received>();
    expect(received.headers[IdentityHeaders.userId]).toBeUndefined();
    expect(verify(received)).toEqual({
      ok: true,
      identity: { userId: null, sessionId: null, sessionExpires: null, clientIp: '203.0.113.8' },
    });
  });

  it('forwards no identity, but a proof, when an optional route has no valid session', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      remoteAddress: '203.0.113.9',
      headers: { cookie: `${SESSION_COOKIE}=garbage` },
    });
    expect(verify(res.json<Received>())).toMatchObject({
      ok: true,
      identity: { userId: null, clientIp: '203.0.113.9' },
    });
  });
});
