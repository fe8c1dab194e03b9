import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigner } from 'fast-jwt';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyLimits, SESSION_AUDIENCE, SESSION_COOKIE, SESSION_ISSUER } from '@wayfarer/contracts';
import { createLogger } from '@wayfarer/service-kit';
import { publicKeyPem } from '@wayfarer/service-kit/keys';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { STALENESS_BOUND_MS } from '../src/revocations';
import { revokeAsAuthDoes } from './revoke';
import { testConfig } from './wire';

/** A real upstream service that answers with what it received. */
async function startEcho(): Promise<{ app: FastifyInstance; url: string }> {
  // takes any body size, so that only the gateway's own caps are under test
  const app = Fastify({ bodyLimit: 1024 * 1024 * 1024 });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.all('/*', async (request) => ({
    method: request.method,
    url: request.url,
    headers: request.headers,
  }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

function signer(key: KeyObject, overrides: Record<string, unknown> = {}) {
  return createSigner({
    key: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    algorithm: 'EdDSA',
    iss: SESSION_ISSUER,
    aud: SESSION_AUDIENCE,
    expiresIn: 60_000,
    ...overrides,
  });
}

describe('gateway', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const otherKey = generateKeyPairSync('ed25519').privateKey;
  let echo: { app: FastifyInstance; url: string };
  let gateway: FastifyInstance;
  let redis: Redis;
  const sign = (claims: Record<string, unknown> = {}, key = privateKey, opts = {}) =>
    signer(key, opts)({ sub: 'user-1', jti: randomUUID(), ...claims });
  const cookieFor = (token: string) => ({ cookie: `${SESSION_COOKIE}=${token}` });

  beforeAll(async () => {
    echo = await startEcho();
    redis = new Redis(testInfra().redisUrl);
    const dist = mkdtempSync(join(tmpdir(), 'wayfarer-dist-'));
    mkdirSync(join(dist, 'static/js'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Wayfarer</title>');
    writeFileSync(join(dist, 'static/js/app-abc.js'), 'console.log(1)');
    const config = testConfig({
      AUTH_URL: echo.url,
      TRIPS_URL: 'http://127.0.0.1:1', // nothing listens there: a service that is down
      SOCIAL_URL: echo.url,
      FRONTEND_DIST: dist,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // 127.0.0.1's /api count is shared in Redis with every stack on the machine (e2e, fuzz):
      // that limit is rate-limit.test.ts's, with addresses of its own
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'silent',
    });
    // a unique rate-limit bucket per run: requests come from the same inject IP
    gateway = await buildApp({
      config,
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: publicKeyPem(privateKey),
      identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await echo?.app.close();
    await redis?.quit();
  });

  it('answers an API call without a session with 401 JSON', async () => {
    const res = await gateway.inject({ url: '/api/protected' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'You need to be signed in.' });
  });

  it('forwards the verified user id and ignores a client-sent one', async () => {
    const res = await gateway.inject({
      url: '/api/protected',
      headers: { ...cookieFor(sign()), 'x-user-id': 'attacker', 'x-session-id': 'forged' },
    });
    expect(res.statusCode).toBe(200);
    const { headers } = res.json();
    expect(headers['x-user-id']).toBe('user-1');
    expect(headers['x-session-id']).not.toBe('forged');
    expect(headers['x-request-id']).toBeTruthy();
  });

  it('strips a client-sent x-user-id on public routes too', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-user-id': 'attacker', 'content-type': 'application/json' },
      payload: { email: 'a@b.c', password: 'x' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().headers['x-user-id']).toBeUndefined();
  });

  it('rejects a tampered token', async () => {
    const [h, p, s] = sign().split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString(
      'base64url',
    );
    const res = await gateway.inject({
      url: '/api/protected',
      headers: cookieFor(`${h}.${forged}.${s}`),
    });
    expect(res.statusCode).toBe(401);
  });

  it('rejects an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const token = signer(privateKey, { expiresIn: undefined })({
      sub: 'user-1',
      jti: randomUUID(),
      iat: past - 60,
      exp: past,
    });
    const res = await gateway.inject({ url: '/api/protected', headers: cookieFor(token) });
    expect(res.statusCode).toBe(401);
  });

  it('rejects a token signed by another key, issuer or audience, and an unsigned one', async () => {
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({
        sub: 'user-1',
        jti: 'x',
        exp: 9999999999,
        iss: SESSION_ISSUER,
        aud: SESSION_AUDIENCE,
      }),
    ).toString('base64url')}.`;
    for (const token of [
      sign({}, otherKey),
      sign({}, privateKey, { iss: 'evil' }),
      sign({}, privateKey, { aud: 'other-app' }),
      unsigned,
      'garbage',
    ]) {
      const res = await gateway.inject({ url: '/api/protected', headers: cookieFor(token) });
      expect(res.statusCode, token).toBe(401);
    }
  });

  it('rejects a revoked session', async () => {
    const jti = randomUUID();
    const token = sign({ jti });
    expect(
      (await gateway.inject({ url: '/api/protected', headers: cookieFor(token) })).statusCode,
    ).toBe(200);
    await revokeAsAuthDoes(redis, jti);
    // refused within the staleness bound of the gateway's revocation copy
    await expect
      .poll(
        async () =>
          (await gateway.inject({ url: '/api/protected', headers: cookieFor(token) })).statusCode,
        { timeout: STALENESS_BOUND_MS, interval: 20 },
      )
      .toBe(401);
  });

  it('forwards identity to logout when the session is valid, and none when it is not', async () => {
    const withSession = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      headers: cookieFor(sign()),
    });
    expect(withSession.json().headers['x-user-id']).toBe('user-1');
    const without = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      headers: cookieFor('garbage'),
    });
    expect(without.statusCode).toBe(200);
    expect(without.json().headers['x-user-id']).toBeUndefined();
  });

  it('answers 503 JSON naming the service when it is down', async () => {
    const res = await gateway.inject({ url: '/api/mytrips', headers: cookieFor(sign()) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: 'service_unavailable',
      message: 'The trips service is unavailable right now. Please try again shortly.',
    });
  });

  it('refuses a state-changing call from another origin', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...cookieFor(sign()), origin: 'https://evil.example', host: 'localhost:8080' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('serves the SPA: index.html for app routes, JSON 404 for unknown API paths', async () => {
    const page = await gateway.inject({ url: '/trips', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Wayfarer</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('googleapis'); // no Maps key configured here
    const asset = await gateway.inject({ url: '/static/js/app-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await gateway.inject({ url: '/api/unknown', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe('not_found');
  });

  it('tells the browser there is no Maps key unless one is configured', async () => {
    const res = await gateway.inject({ url: '/runtime-config.json' });
    expect(res.json()).toEqual({ googleMapsApiKey: null });
  });

  it('refuses a body above the route limit with 413 before proxying', async () => {
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('payload_too_large');
  });

  it('takes exactly the register cap from contracts, refusing one byte more before proxying', async () => {
    const cap = BodyLimits.register;
    const body = Buffer.alloc(cap + 1, 'x');
    const headers = { 'content-type': 'multipart/form-data; boundary=x' };
    const atCap = await gateway.inject({
      method: 'POST',
      url: '/api/register',
      headers,
      payload: body.subarray(0, cap),
    });
    expect(atCap.statusCode).toBe(200); // the echo service got it
    expect(atCap.json().url).toBe('/api/register');
    const over = await gateway.inject({
      method: 'POST',
      url: '/api/register',
      headers,
      payload: body,
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      error: 'payload_too_large',
      message: `The request body is too large: this route accepts at most 5.0 MiB (${cap} bytes).`,
    });
  });

  it('sets security headers', async () => {
    const res = await gateway.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('gateway config', () => {
  it('reads TRUST_PROXY as off, a hop count or a list of proxies', () => {
    const base = { PORT: '8080', REDIS_URL: 'redis://127.0.0.1:1' };
    expect(GatewayEnv.parse(base).TRUST_PROXY).toBe(false);
    const oneHop = GatewayEnv.parse({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY;
    expect(typeof oneHop === 'function' && [oneHop('10.0.0.1', 0), oneHop('10.0.0.2', 1)]).toEqual([
      true,
      false,
    ]);
    expect(GatewayEnv.parse({ ...base, TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
  });
});

describe('gateway rate limits', () => {
  it('limits login attempts per client IP with a clear 429', async () => {
    const echo = await startEcho();
    const redis = new Redis(testInfra().redisUrl);
    const config = testConfig({
      AUTH_URL: echo.url,
      AUTH_RATE_LIMIT_PER_MINUTE: '3',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp({
      config,
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: publicKeyPem(generateKeyPairSync('ed25519').privateKey),
      identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
    });
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: ip,
        payload: {},
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().message).toMatch(/Too many requests/);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    await app.close();
    await echo.app.close();
    await redis.quit();
  });
});
