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
/** The login slowdowns auth asked for, recorded instead of waited (the policy is unit-tested). */
const delays: number[] = [];
beforeAll(async () => {
  h = await startAuth({
    sleep: async (ms) => {
      delays.push(ms);
    },
  });
  const u = newUser('login');
  const res = await register(h.app, u);
  user = { ...u, id: res.json<{ userId: string }>().userId };
});
afterAll(async () => {
  await h?.close();
});

/** A login from `ip`: the gateway's client address header (`x-client-ip`) and the socket's. */
function login(body: unknown, ip = randomIp()) {
  return h.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: body as object,
    headers: { 'x-client-ip': ip },
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
  const { maxFailuresPerPair, maxFailuresPerAddress, accountMaxDelayMs } = LOGIN_THROTTLE;

  async function account(tag: string) {
    const u = newUser(tag);
    expect((await register(h.app, u)).statusCode).toBe(201);
    return u;
  }

  it('ten wrong passwords from ten addresses, then the right one from an eleventh: 200, slowed at most by the cap', async () => {
    const u = await account('spread');
    for (let i = 0; i < 10; i++) {
      const res = await login({ email: u.email, password: `wrong ${i}` });
      expect(res.statusCode).toBe(401);
    }
    // the account's slowdown grew with its failures (from any address), never past the cap
    expect(delays).toEqual([250, 500, 1000, 2000]);
    delays.length = 0;
    const owner = await login({ email: u.email, password: u.password });
    expect(owner.statusCode).toBe(200);
    expect(sessionCookie(owner)).toBeDefined();
    expect(delays).toEqual([accountMaxDelayMs]);
    // the success reset the account: no more slowdown
    delays.length = 0;
    expect((await login({ email: u.email, password: u.password })).statusCode).toBe(200);
    expect(delays).toEqual([]);
  });

  it(`the same address failing ${maxFailuresPerPair} times on one account gets 429 for that account only`, async () => {
    const u = await account('pair');
    const ip = randomIp();
    for (let i = 0; i < maxFailuresPerPair; i++) {
      expect((await login({ email: u.email, password: `wrong ${i}` }, ip)).statusCode).toBe(401);
    }
    const blocked = await login({ email: u.email, password: u.password }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      error: 'too_many_requests',
      message: expect.stringMatching(
        /^Too many failed login attempts\. Please wait \d+ minutes? and try again\.$/,
      ) as string,
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(LOGIN_THROTTLE.windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowSeconds);
    expect(sessionCookie(blocked)).toBeUndefined();
    // the owner from another address logs in; the blocked address still reaches other accounts
    expect((await login({ email: u.email, password: u.password }, randomIp())).statusCode).toBe(
      200,
    );
    expect((await login({ email: user.email, password: user.password }, ip)).statusCode).toBe(200);
    // and its pair stays blocked (a success elsewhere does not lift it)
    expect((await login({ email: u.email, password: u.password }, ip)).statusCode).toBe(429);
  });

  it('a success resets the pair', async () => {
    const u = await account('reset');
    const ip = randomIp();
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++)
        expect((await login({ email: u.email, password: 'nope' }, ip)).statusCode).toBe(401);
    };
    await fail(maxFailuresPerPair - 1);
    expect((await login({ email: u.email, password: u.password }, ip)).statusCode).toBe(200);
    await fail(maxFailuresPerPair - 1);
    expect((await login({ email: u.email, password: u.password }, ip)).statusCode).toBe(200);
  });

  it(`blocks an address after ${maxFailuresPerAddress} failures across accounts (password spraying)`, async () => {
    const ip = randomIp();
    for (let i = 0; i < maxFailuresPerAddress; i++) {
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

  it('counts failures by the client address and the account', async () => {
    const u = await account('keys');
    const ip = randomIp();
    for (let i = 0; i < 3; i++) await login({ email: u.email, password: 'bad' }, ip);
    const count = async (key: string) => Number(await h.redis.get(`auth:login-failures:${key}`));
    expect(await count(`pair:${ip}:${u.email}`)).toBe(3);
    expect(await count(`ip:${ip}`)).toBe(3);
    expect(await count(`email:${u.email}`)).toBe(3);
  });
});
