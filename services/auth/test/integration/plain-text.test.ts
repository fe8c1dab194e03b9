import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityHeaders } from '@wayfarer/contracts';
import { countUsers, newUser, randomIp, register, startAuth, type Harness } from './harness';

/*
 * Every text input of auth is plain text: a control character in a registration
 * field (multipart), in the login body (JSON) or in an avatar path is a 400 naming the field,
 * before PostgreSQL sees it (a NUL in the name was a 500), and nobody is registered.
 */

let h: Harness;

beforeAll(async () => {
  h = await startAuth();
});

afterAll(async () => {
  await h?.close();
});

const users = () => countUsers(h);

describe('POST /api/register', () => {
  it.each([
    [
      'a NUL in the name',
      { name: 'Ada\u0000' },
      'name: must not contain control characters: found U+0000 at position 4.',
    ],
    [
      'a line break in the name',
      { name: 'Ada\nLovelace' },
      'name: must not contain control characters: found U+000D at position 4.',
    ],
    [
      'an escape in the email',
      { email: 'ada\u001b@example.com' },
      /^email: must not contain control characters: found U\+001B at position 4\./,
    ],
    [
      'a NUL in the password',
      { password: 'correct horse\u0000battery' },
      'password: must not contain control characters: found U+0000 at position 14.',
    ],
  ])('refuses %s with a 400, and registers nobody', async (_name, fields, message) => {
    const before = await users();
    const res = await register(h.app, { ...newUser('plain'), ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toBe('bad_request');
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await users()).toBe(before);
  });
});

describe('POST /api/login and GET /api/avatars', () => {
  it.each([
    [
      'a NUL in the email',
      { email: 'ada\u0000@example.com', password: 'whatever123' },
      /^email: must not contain control characters/,
    ],
    [
      'a lone surrogate in the password',
      { email: 'ada@example.com', password: 'pw\ud800' },
      /^password: must be valid Unicode text: found a lone surrogate U\+D800 at position 3\./,
    ],
  ])('login with %s is a 400', async (_name, body, message) => {
    const ip = randomIp();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: body,
      headers: { 'x-client-ip': ip },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(message);
  });

  it('an avatar path with a control character is a 400 naming the parameter', async () => {
    const res = await h.app.inject({
      url: '/api/avatars/%00/a.webp',
      headers: { [IdentityHeaders.userId]: 'someone' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message:
        'Path parameter userId must not contain control characters: found U+0000 at position 1.',
    });
  });
});
