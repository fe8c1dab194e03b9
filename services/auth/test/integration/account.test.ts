import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import {
  AccountMessages,
  DEFAULT_AVATAR,
  makeEvent,
  revokedSessionKey,
  SESSION_COOKIE,
  Topics,
  UserDeleted,
} from '@wayfarer/contracts';
import { tablesHolding, testKafka, waitForEvents } from '@wayfarer/test-kit';
import { JPEG, PNG, TEXT } from '../fixtures';
import {
  claimsOf,
  identityFor,
  multipart,
  newUser,
  randomIp,
  register,
  sessionCookie,
  startAuthPerFile,
  type FilePart,
  type Harness,
} from './harness';

let h: Harness;
startAuthPerFile((started) => (h = started));

interface Account {
  userId: string;
  email: string;
  password: string;
  /** The session made at registration. */
  token: string;
}

async function signUp(tag: string, files: FilePart[] = []): Promise<Account> {
  const user = newUser(tag);
  const res = await register(h.app, user, files);
  expect(res.statusCode).toBe(201);
  return {
    userId: res.json<{ userId: string }>().userId,
    email: user.email,
    password: user.password,
    token: sessionCookie(res)!.value,
  };
}

async function login(email: string, password: string, ip = randomIp()) {
  return h.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'x-client-ip': ip },
    payload: { email, password },
  });
}

async function patchProfile(token: string, fields: Record<string, string>, files: FilePart[] = []) {
  const body = await multipart(fields, files);
  return h.app.inject({
    method: 'PATCH',
    url: '/api/userDetails',
    ...body,
    headers: { ...body.headers, ...identityFor(token) },
  });
}

const json = (token: string, ip = randomIp()) => ({
  ...identityFor(token),
  'x-client-ip': ip,
});

const avatarKeys = (userId: string) => h.avatars.list(`${userId}/`);

describe('PATCH /api/userDetails', () => {
  it('changes the name, announces user.updated, and keeps the picture', async () => {
    const a = await signUp('rename', [{ data: PNG, filename: 'p.png', type: 'image/png' }]);
    const before = (
      await h.app.inject({ url: '/api/userDetails', headers: identityFor(a.token) })
    ).json<{ profilePicture: string }>();

    const res = await patchProfile(a.token, { name: '  Ada Renamed ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username: 'Ada Renamed', profilePicture: before.profilePicture });
    const details = await h.app.inject({ url: '/api/userDetails', headers: identityFor(a.token) });
    expect(details.json()).toEqual(res.json());

    const [event] = await waitForEvents<{
      type: string;
      payload: { userId: string; name: string; profilePicture: string };
    }>(Topics.authUser, (e) => e.type === 'user.updated' && e.payload.userId === a.userId);
    expect(event!.payload).toEqual({
      userId: a.userId,
      name: 'Ada Renamed',
      profilePicture: before.profilePicture,
    });
  });

  it('replaces the picture: the new one served, the old object removed from MinIO', async () => {
    const a = await signUp('repicture', [{ data: PNG, filename: 'p.png', type: 'image/png' }]);
    const [oldKey] = await avatarKeys(a.userId);
    expect(oldKey).toMatch(/\.png$/);

    const res = await patchProfile(a.token, {}, [
      { data: JPEG, filename: 'me.jpg', type: 'image/jpeg' },
    ]);
    expect(res.statusCode).toBe(200);
    const { username, profilePicture } = res.json<{ username: string; profilePicture: string }>();
    expect(username).toMatch(/^Ada repicture/);
    expect(profilePicture).toMatch(new RegExp(`^/api/avatars/${a.userId}/[a-f0-9]{32}\\.jpg$`));
    // only the new picture is stored
    expect(await avatarKeys(a.userId)).toEqual([profilePicture.replace('/api/avatars/', '')]);
    const served = await h.app.inject({ url: profilePicture, headers: identityFor(a.token) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const old = await h.app.inject({
      url: `/api/avatars/${oldKey}`,
      headers: identityFor(a.token),
    });
    expect(old.statusCode).toBe(404);
  });

  it('gives a user without a picture one, and changes both at once', async () => {
    const a = await signUp('both');
    const res = await patchProfile(a.token, { name: 'Both Changed' }, [
      { data: PNG, filename: 'p.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('Both Changed');
    expect(res.json().profilePicture).not.toBe(DEFAULT_AVATAR);
    expect(await avatarKeys(a.userId)).toHaveLength(1);
  });

  it('refuses what registration refuses, changing nothing', async () => {
    const a = await signUp('refused', [{ data: PNG, filename: 'p.png', type: 'image/png' }]);
    const keys = await avatarKeys(a.userId);
    const cases: [LightMyRequestResponse, number, RegExp | string][] = [
      [await patchProfile(a.token, {}), 400, AccountMessages.nothingToChange],
      [await patchProfile(a.token, { name: '   ' }), 400, /Name is required/],
      [await patchProfile(a.token, { name: 'x'.repeat(81) }), 400, /at most 80/],
      [await patchProfile(a.token, { name: 'a\u0000b' }), 400, /control characters/],
      [await patchProfile(a.token, { email: 'new@example.com' }), 400, /Unexpected field "email"/],
      [
        await patchProfile(a.token, {}, [{ data: TEXT, filename: 'x.png', type: 'image/png' }]),
        400,
        /PNG, JPEG, GIF or WebP/,
      ],
    ];
    for (const [res, status, message] of cases) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const json = await h.app.inject({
      method: 'PATCH',
      url: '/api/userDetails',
      headers: identityFor(a.token),
      payload: { name: 'Json' },
    });
    expect(json.statusCode).toBe(415);
    expect(await avatarKeys(a.userId)).toEqual(keys);
    const details = await h.app.inject({ url: '/api/userDetails', headers: identityFor(a.token) });
    expect(details.json().username).toMatch(/^Ada refused/);
    const anonymous = await h.app.inject({ method: 'PATCH', url: '/api/userDetails' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/password', () => {
  it('changes the password and revokes every other session, not the current one', async () => {
    const a = await signUp('password');
    const other = sessionCookie(await login(a.email, a.password))!.value;
    const newPassword = `${a.password} new`;

    const res = await h.app.inject({
      method: 'POST',
      url: '/api/password',
      headers: json(a.token),
      payload: { currentPassword: a.password, newPassword },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: AccountMessages.passwordChanged });

    // the other session is revoked where the gateway looks (Redis, synced from PostgreSQL)
    expect(await h.redis.exists(revokedSessionKey(claimsOf(other).jti))).toBe(1);
    expect(await h.redis.exists(revokedSessionKey(claimsOf(a.token).jti))).toBe(0);
    const { rows } = await h.pool.query('SELECT jti FROM revoked_sessions WHERE jti = $1', [
      claimsOf(other).jti,
    ]);
    expect(rows).toHaveLength(1);

    expect((await login(a.email, a.password)).statusCode).toBe(401);
    expect((await login(a.email, newPassword)).statusCode).toBe(200);
  });

  it('a wrong current password is a 400 counted by the login throttle', async () => {
    const a = await signUp('wrongpw');
    const ip = randomIp();
    const wrong = () =>
      h.app.inject({
        method: 'POST',
        url: '/api/password',
        headers: json(a.token, ip),
        payload: { currentPassword: 'not my password', newPassword: 'whatever long enough' },
      });
    const first = await wrong();
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual({
      error: 'invalid_password',
      message: AccountMessages.wrongPassword,
    });
    // counted where login counts: this address and account
    expect(Number(await h.redis.get(`auth:login-failures:pair:${ip}:${a.email}`))).toBe(1);
    for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(400);
    // five failures: this address is refused for this account, on login too
    const throttled = await wrong();
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
    expect((await login(a.email, a.password, ip)).statusCode).toBe(429);
    // the password did not change
    expect((await login(a.email, a.password)).statusCode).toBe(200);
  });

  it('refuses a new password registration would refuse', async () => {
    const a = await signUp('shortpw');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/password',
      headers: json(a.token),
      payload: { currentPassword: a.password, newPassword: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/at least 8/);
    expect((await login(a.email, a.password)).statusCode).toBe(200);
  });
});

describe('DELETE /api/account', () => {
  it('a wrong password changes nothing', async () => {
    const a = await signUp('keep');
    const res = await h.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: json(a.token),
      payload: { password: 'nope nope nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AccountMessages.wrongPassword);
    expect((await login(a.email, a.password)).statusCode).toBe(200);
  });

  it('ends every session, erases the user, the avatars and the outbox rows, frees the email', async () => {
    const a = await signUp('close', [{ data: PNG, filename: 'p.png', type: 'image/png' }]);
    const other = sessionCookie(await login(a.email, a.password))!.value;
    expect(await avatarKeys(a.userId)).toHaveLength(1);

    const res = await h.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: json(a.token),
      payload: { password: a.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: AccountMessages.accountDeleted });
    const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    for (const token of [a.token, other]) {
      expect(await h.redis.exists(revokedSessionKey(claimsOf(token).jti))).toBe(1);
    }
    expect(await avatarKeys(a.userId)).toEqual([]);
    const details = await h.app.inject({ url: '/api/userDetails', headers: identityFor(a.token) });
    expect(details.statusCode).toBe(404);

    const [event] = await waitForEvents<{ type: string; payload: { userId: string } }>(
      Topics.authUser,
      (e) => e.type === 'user.deleted' && e.payload.userId === a.userId,
    );
    expect(event!.payload).toEqual({ userId: a.userId });
    // no table of auth's database names the user once the event is out (generic scan)
    await vi.waitFor(async () => expect(await tablesNaming(a.userId)).toEqual([]), {
      timeout: 10_000,
    });
    expect(await h.redis.keys(`auth:login-failures:*${a.email}`)).toEqual([]);

    expect((await login(a.email, a.password)).statusCode).toBe(401);
    const again = await register(h.app, {
      name: 'Ada again',
      email: a.email,
      password: a.password,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().userId).not.toBe(a.userId);
  });

  it('its erasure consumer removes whatever avatar is left under a deleted user (user.deleted)', async () => {
    // as if the request's own removal had failed (MinIO down): objects left under the prefix
    const userId = randomUUID();
    await h.avatars.put(`${userId}/${'e'.repeat(32)}.png`, PNG, 'image/png');
    await h.avatars.put(`${userId}/${'f'.repeat(32)}.jpg`, JPEG, 'image/jpeg');
    const producer = testKafka().producer();
    await producer.connect();
    try {
      const event = makeEvent(UserDeleted, userId, { userId });
      await producer.send({
        topic: UserDeleted.topic,
        messages: [{ key: userId, value: JSON.stringify(event) }],
      });
    } finally {
      await producer.disconnect();
    }
    await vi.waitFor(async () => expect(await avatarKeys(userId)).toEqual([]), {
      timeout: 20_000,
    });
  });
});

/** Every table of auth's database whose rows, as text, contain `text`. */
const tablesNaming = (text: string) => tablesHolding(h.pool, [text]);
