import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { IdentityHeaders, revokedSessionKey, SESSION_COOKIE } from '@wayfarer/contracts';
import {
  startRedisServer,
  startTcpProxy,
  type RedisServer,
  type TcpProxy,
} from '@wayfarer/test-kit/faults';
import { LOGIN_UNAVAILABLE_MESSAGE, LOGOUT_UNAVAILABLE_MESSAGE } from '../../src/domain/messages';
import {
  claimsOf,
  identityFor,
  newUser,
  register,
  sessionCookie,
  startAuth,
  type Harness,
} from './harness';

// auth against a redis-server of this file's own, crashed (SIGKILL) and restarted for real, and
// a PostgreSQL reached through a proxy this file can cut (the shared server keeps running).
let redisServer: RedisServer;
let pgProxy: TcpProxy;
let h: Harness;
let probe: Redis;
/** The session revoked while Redis was up. */
let revokedFirst = '';
beforeAll(async () => {
  redisServer = await startRedisServer({ appendonly: true });
  pgProxy = await startTcpProxy();
  h = await startAuth({
    env: (base) => ({
      REDIS_URL: redisServer.url,
      DATABASE_URL: pgProxy.route(base.DATABASE_URL!),
    }),
  });
  probe = new Redis(redisServer.url, { maxRetriesPerRequest: 1, lazyConnect: true });
  probe.on('error', () => undefined); // it sees the crash too
}, 60_000);
afterAll(async () => {
  probe?.disconnect();
  pgProxy?.restore();
  await h?.close();
  await pgProxy?.close();
  await redisServer?.stop();
});

async function signedIn(tag: string) {
  const u = newUser(tag);
  const res = await register(h.app, u);
  expect(res.statusCode).toBe(201);
  const token = sessionCookie(res)!.value;
  return { user: u, token, claims: claimsOf(token) };
}

const logout = (token: string) =>
  h.app.inject({ method: 'POST', url: '/api/logout', headers: identityFor(token) });

const login = (body: { email: string; password: string }) =>
  h.app.inject({ method: 'POST', url: '/api/login', payload: body });

async function revocationRow(jti: string) {
  const { rows } = await h.pool.query<{ exp: string; synced: boolean }>(
    `SELECT extract(epoch FROM expires_at)::bigint AS exp, synced FROM revoked_sessions
     WHERE jti = $1`,
    [jti],
  );
  return rows[0] ? { exp: Number(rows[0].exp), synced: rows[0].synced } : null;
}

/** The revocation key's absolute expiry in Redis (seconds), -2 when the key is absent. */
const redisExpiry = async (jti: string) =>
  Number(await probe.call('EXPIRETIME', revokedSessionKey(jti)));

const cookieCleared = (res: LightMyRequestResponse) =>
  res.cookies.find((c) => c.name === SESSION_COOKIE)?.value === '';

describe('Redis up', () => {
  it('logout writes the revocation to PostgreSQL and to Redis, both expiring with the session', async () => {
    const { claims, token } = await signedIn('both');
    const res = await logout(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out.' });
    expect(cookieCleared(res)).toBe(true);
    expect(await revocationRow(claims.jti)).toEqual({ exp: claims.exp, synced: true });
    expect(await probe.get(revokedSessionKey(claims.jti))).toBe('1');
    expect(await redisExpiry(claims.jti)).toBe(claims.exp);
    revokedFirst = claims.jti;
  });
});

describe('Redis crashed (SIGKILL) and restarted empty', { timeout: 60_000 }, () => {
  let victim: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    victim = await signedIn('victim');
    other = await signedIn('other');
    await redisServer.kill();
  });

  it('login answers 503 naming the cause, and sets no cookie', async () => {
    const res = await login({ email: other.user.email, password: other.user.password });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: 'service_unavailable',
      message: LOGIN_UNAVAILABLE_MESSAGE,
    });
    expect(sessionCookie(res)).toBeUndefined();
    // a wrong password is not checked either (no guess goes uncounted)
    const wrong = await login({ email: other.user.email, password: 'guess' });
    expect(wrong.statusCode).toBe(503);
  });

  it('readiness names Redis', async () => {
    const res = await h.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toMatchObject({ postgres: 'ok', minio: 'ok' });
    expect(res.json().checks.redis).not.toBe('ok');
  });

  it('logout of a valid session answers success, with the revocation committed in PostgreSQL', async () => {
    const res = await logout(victim.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out.' });
    expect(cookieCleared(res)).toBe(true);
    expect(await revocationRow(victim.claims.jti)).toEqual({
      exp: victim.claims.exp,
      synced: false,
    });
  });

  it('once Redis is back with no data, the revocation is re-written to it from PostgreSQL', async () => {
    await redisServer.restart({ emptyDir: true });
    // the probe may have reconnected on its own already (ioredis retries after the crash)
    await probe.connect().catch((err: Error) => {
      if (!/already connecting\/connected/.test(err.message)) throw err;
    });
    await vi.waitFor(
      async () => expect(await probe.get(revokedSessionKey(victim.claims.jti))).toBe('1'),
      { timeout: 20_000, interval: 100 },
    );
    expect(await redisExpiry(victim.claims.jti)).toBe(victim.claims.exp);
    // the session revoked while Redis was up was lost with its data, and is back too
    await vi.waitFor(async () =>
      expect(await probe.get(revokedSessionKey(revokedFirst))).toBe('1'),
    );
    await vi.waitFor(async () =>
      expect(await revocationRow(victim.claims.jti)).toMatchObject({ synced: true }),
    );
    // and login works again
    await vi.waitFor(
      async () =>
        expect(
          (await login({ email: other.user.email, password: other.user.password })).statusCode,
        ).toBe(200),
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe('PostgreSQL unreachable', { timeout: 60_000 }, () => {
  it('logout answers 503 naming the cause and does not claim success; the cookie is cleared and Redis still gets the revocation', async () => {
    // a session as the gateway would forward it (no registration: nothing else of auth is
    // using PostgreSQL when it goes away)
    const claims = {
      sub: randomUUID(),
      jti: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 3600,
    };
    pgProxy.cut();
    try {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: {
          [IdentityHeaders.userId]: claims.sub,
          [IdentityHeaders.sessionId]: claims.jti,
          [IdentityHeaders.sessionExpires]: String(claims.exp),
        },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'service_unavailable',
        message: LOGOUT_UNAVAILABLE_MESSAGE,
      });
      expect(cookieCleared(res)).toBe(true);
      expect(await probe.get(revokedSessionKey(claims.jti))).toBe('1');
    } finally {
      pgProxy.restore();
    }
    expect(await revocationRow(claims.jti)).toBeNull();
  });
});
