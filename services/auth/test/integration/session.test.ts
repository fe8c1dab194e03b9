import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  parseRevocationMessage,
  revokedSessionKey,
  SESSION_COOKIE,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';
import { PNG } from '../fixtures';
import {
  claimsOf,
  identityFor,
  newUser,
  register,
  sessionCookie,
  startAuth,
  type Harness,
} from './harness';

let h: Harness;
let token: string;
let userId: string;
beforeAll(async () => {
  h = await startAuth();
  const res = await register(h.app, newUser('session'), [
    { data: PNG, filename: 'p.png', type: 'image/png' },
  ]);
  token = sessionCookie(res)!.value;
  userId = res.json<{ userId: string }>().userId;
});
afterAll(async () => {
  await h?.close();
});

describe('GET /api/protected', () => {
  it('401 without identity', async () => {
    const res = await h.app.inject({ url: '/api/protected' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'You need to be signed in.' });
  });
  it('200 with the identity the gateway forwards', async () => {
    const res = await h.app.inject({ url: '/api/protected', headers: identityFor(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, userId });
  });
});

describe('GET /api/userDetails', () => {
  it('401 without identity, 404 for a user that no longer exists', async () => {
    expect((await h.app.inject({ url: '/api/userDetails' })).statusCode).toBe(401);
    const gone = await h.app.inject({
      url: '/api/userDetails',
      headers: { 'x-user-id': '00000000-0000-4000-8000-000000000000' },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('not_found');
  });
});

describe('GET /api/avatars/:userId/:file', () => {
  it('404 for a well-formed key that does not exist', async () => {
    const res = await h.app.inject({
      url: `/api/avatars/${userId}/${'0'.repeat(32)}.png`,
      headers: identityFor(token),
    });
    expect(res.statusCode).toBe(404);
  });
  it.each([
    `/api/avatars/..%2F..%2Fetc/passwd`,
    `/api/avatars/USERID/..%2F..%2Fx.png`,
    `/api/avatars/USERID/${'a'.repeat(32)}.svg`,
    `/api/avatars/USERID/%00.png`,
    `/api/avatars/not-a-user/${'a'.repeat(32)}.png`,
    `/api/avatars/USERID/../../other/${'a'.repeat(32)}.png`,
  ])('rejects %s with a 4xx', async (url) => {
    const res = await h.app.inject({
      url: url.replace('USERID', userId),
      headers: identityFor(token),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('POST /api/logout', () => {
  it('revokes the session in Redis until it expires, announces it, and clears the cookie', async () => {
    const claims = claimsOf(token);
    // the gateway's revocation copy listens on this channel
    const subscriber = h.redis.duplicate({ lazyConnect: false, enableOfflineQueue: true });
    const messages: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => messages.push(message));
    await subscriber.subscribe(SESSION_REVOCATIONS_CHANNEL);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: identityFor(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out.' });
    const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cleared.value).toBe('');
    expect(cleared.path).toBe('/');
    expect(cleared.expires!.getTime()).toBeLessThanOrEqual(Date.now());

    expect(await h.redis.get(revokedSessionKey(claims.jti))).toBe('1');
    const ttl = await h.redis.ttl(revokedSessionKey(claims.jti));
    const left = claims.exp - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(left - 10);
    expect(ttl).toBeLessThanOrEqual(left + 1);
    await vi.waitFor(() =>
      expect(messages.map(parseRevocationMessage)).toContainEqual({
        jti: claims.jti,
        exp: claims.exp,
      }),
    );
    await subscriber.quit();
  });

  it('without identity: still 200 and clears the cookie', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/logout' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out.' });
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
  });
});

describe('health', () => {
  it('/healthz and /readyz (PostgreSQL, Redis, MinIO)', async () => {
    expect((await h.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const ready = await h.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      service: 'auth',
      checks: { postgres: 'ok', redis: 'ok', minio: 'ok' },
    });
  });
});
