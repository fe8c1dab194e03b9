import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_THROTTLE } from '../../src/domain/throttle';
import {
  claimsOf,
  newUser,
  randomIp,
  register,
  sessionCookie,
  startAuth,
  type Harness,
} from './harness';

let h: Harness;
let user: ReturnType<typeof newUser> & { id: string };
beforeAll(async () => {
  h = await startAuth();
  const u = newUser('login');
  const res = await register(h.app, u);
  user = { ...u, id: res.json<{ userId: string }>().userId };
});
afterAll(async () => {
  await h?.close();
});

function login(body: unknown, ip = randomIp()) {
  return h.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: body as object,
    remoteAddress: ip,
  });
}

const invalid = { error: 'invalid_credentials', message: 'Invalid login details.' };

describe('POST /api/login', () => {
  it('right password: 200, user id, session cookie', async () => {
    const res = await login({ email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.id }, message: 'Login successful.' });
    const cookie = sessionCookie(res)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(claimsOf(cookie.value).sub).toBe(user.id);
  });

  it('email in another case and with spaces still matches', async () => {
    const res = await login({ email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(res.statusCode).toBe(200);
  });

  it('wrong password: 401 Invalid login details., no cookie', async () => {
    const res = await login({ email: user.email, password: 'wrong password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(invalid);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('unknown email: the same answer, after verifying against a dummy hash of the same cost', async () => {
    // argon2's own verify, watched (it still runs): which hash each login checks the password
    // against. An unknown email must cost one verification with the parameters real hashes
    // have, so its answer does not come back sooner than a wrong password's.
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const unknown = await login({ email: newUser().email, password: 'whatever123' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(invalid);
      expect(verify).toHaveBeenCalledTimes(1);
      const [dummy, tried] = verify.mock.calls[0]!;
      expect(tried).toBe('whatever123');

      const { rows } = await h.pool.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [user.id],
      );
      const real = rows[0]!.password_hash;
      expect(dummy).not.toBe(real);
      // `$argon2id$v=19$m=...,p=...,t=...$salt$hash`: same algorithm, version and cost
      const cost = (hash: string) => hash.split('$').slice(1, 4).join('$');
      expect(cost(dummy)).toMatch(/^argon2id\$v=\d+\$m=\d+,p=\d+,t=\d+$/);
      expect(cost(dummy)).toBe(cost(real));

      verify.mockClear();
      const wrong = await login({ email: user.email, password: 'whatever123' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(invalid);
      expect(verify.mock.calls).toEqual([[real, 'whatever123']]);
    } finally {
      verify.mockRestore();
    }
  });

  it.each([
    ['no body', undefined],
    ['bad email', { email: 'nope', password: 'x' }],
    ['missing password', { email: 'a@example.com' }],
    ['empty password', { email: 'a@example.com', password: '' }],
    ['wrong types', { email: 1, password: [] }],
  ])('bad input (%s): 400', async (_name, body) => {
    const res = await login(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('a body over the limit: 413, malformed JSON: 400', async () => {
    const huge = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(200_000) }),
    });
    expect(huge.statusCode).toBe(413);
    const broken = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(broken.statusCode).toBe(400);
  });
});

describe('login throttle (Redis)', { timeout: 180_000 }, () => {
  it(`blocks an email after ${LOGIN_THROTTLE.maxFailuresPerEmail} failures, even with the right password`, async () => {
    const u = newUser('throttle');
    await register(h.app, u);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerEmail; i++) {
      expect((await login({ email: u.email, password: `wrong ${i}` })).statusCode).toBe(401);
    }
    const blocked = await login({ email: u.email, password: u.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('too_many_requests');
    expect(blocked.json().message).toMatch(
      /Too many failed login attempts\. Please wait \d+ minutes? and try again\./,
    );
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(LOGIN_THROTTLE.windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowSeconds);
    expect(sessionCookie(blocked)).toBeUndefined();
    // another account is not affected
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('a success resets the email counter', async () => {
    const u = newUser('reset');
    await register(h.app, u);
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++)
        expect((await login({ email: u.email, password: 'nope' })).statusCode).toBe(401);
    };
    await fail(LOGIN_THROTTLE.maxFailuresPerEmail - 1);
    expect((await login({ email: u.email, password: u.password })).statusCode).toBe(200);
    await fail(LOGIN_THROTTLE.maxFailuresPerEmail - 1);
    expect((await login({ email: u.email, password: u.password })).statusCode).toBe(200);
  });

  it(`blocks an IP after ${LOGIN_THROTTLE.maxFailuresPerIp} failures across emails`, async () => {
    const ip = randomIp();
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerIp; i++) {
      expect((await login({ email: newUser().email, password: 'spray' }, ip)).statusCode).toBe(401);
    }
    const blocked = await login({ email: user.email, password: user.password }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // the same account from another address still works
    expect(
      (await login({ email: user.email, password: user.password }, randomIp())).statusCode,
    ).toBe(200);
  });

  it('uses the client address the gateway forwards (x-forwarded-for)', async () => {
    const u = newUser('xff');
    await register(h.app, u);
    const ip = randomIp();
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerEmail; i++) {
      await h.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: u.email, password: 'bad' },
        headers: { 'x-forwarded-for': ip },
      });
    }
    const keys = await h.redis.keys(`auth:login-failures:ip:${ip}`);
    expect(keys).toHaveLength(1);
    expect(Number(await h.redis.get(keys[0]!))).toBe(LOGIN_THROTTLE.maxFailuresPerEmail);
  });
});
