import { describe, expect, it } from 'vitest';
import { baseUrl, makePng, uniqueEmail } from '../support/browser';

/** The spec's auth rows of the /api table, through the real gateway and auth service. */
async function register(fields: Record<string, string>, picture?: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (picture)
    form.append(
      'profilePicture',
      new Blob([new Uint8Array(picture)], { type: 'image/png' }),
      'me.png',
    );
  return fetch(`${baseUrl()}/api/register`, { method: 'POST', body: form });
}

function sessionCookie(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
  if (!cookie) throw new Error('no session cookie set');
  return cookie.split(';', 1)[0]!;
}

describe('auth API through the gateway', () => {
  it('register -> session -> userDetails -> logout revokes the token', async () => {
    const email = uniqueEmail('api');
    const res = await register(
      { name: 'Api Person', email, password: 'a long password' },
      makePng(16),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { userId: string; message: string };
    expect(body.message).toBe('Registration successful!');
    const cookie = sessionCookie(res);
    expect(res.headers.getSetCookie().join(';')).toMatch(/HttpOnly/i);

    const protectedRes = await fetch(`${baseUrl()}/api/protected`, { headers: { cookie } });
    expect(protectedRes.status).toBe(200);
    expect(await protectedRes.json()).toMatchObject({ ok: true, userId: body.userId });

    const details = (await (
      await fetch(`${baseUrl()}/api/userDetails`, { headers: { cookie } })
    ).json()) as {
      username: string;
      profilePicture: string;
    };
    expect(details.username).toBe('Api Person');
    const avatar = await fetch(`${baseUrl()}${details.profilePicture}`, { headers: { cookie } });
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
    // a stranger without a session cannot fetch it
    expect((await fetch(`${baseUrl()}${details.profilePicture}`)).status).toBe(401);

    const login = await fetch(`${baseUrl()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: email.toUpperCase(), password: 'a long password' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: { id: string } }).user.id).toBe(body.userId);

    const logout = await fetch(`${baseUrl()}/api/logout`, { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie().join(';')).toMatch(
      /wayfarer_session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i,
    );
    // the same token, replayed after logout, is refused by the gateway
    expect((await fetch(`${baseUrl()}/api/protected`, { headers: { cookie } })).status).toBe(401);
  });

  it('ignores a client-sent x-user-id', async () => {
    const res = await fetch(`${baseUrl()}/api/userDetails`, {
      headers: { 'x-user-id': 'someone' },
    });
    expect(res.status).toBe(401);
  });

  it('answers malformed and oversized bodies with 4xx JSON, never 500', async () => {
    const malformed = await fetch(`${baseUrl()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toBeTruthy();

    const huge = await fetch(`${baseUrl()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);

    const notMultipart = await fetch(`${baseUrl()}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', email: 'x@y.co', password: 'long enough' }),
    });
    expect(notMultipart.status).toBeGreaterThanOrEqual(400);
    expect(notMultipart.status).toBeLessThan(500);
  });

  it('refuses a non-image profile picture and creates no user', async () => {
    const email = uniqueEmail('notimage');
    const form = new FormData();
    form.append('name', 'Sneaky');
    form.append('email', email);
    form.append('password', 'a long password');
    form.append(
      'profilePicture',
      new Blob(['<script>alert(1)</script>'], { type: 'image/png' }),
      'x.png',
    );
    const res = await fetch(`${baseUrl()}/api/register`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    const login = await fetch(`${baseUrl()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long password' }),
    });
    expect(login.status).toBe(401);
  });
});
