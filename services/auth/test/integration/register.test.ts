import { createPublicKey } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR, SESSION_TTL_SECONDS, Topics } from '@wayfarer/contracts';
import { gatewayHeaders, waitForEvents } from '@wayfarer/test-kit';
import { pngWithText } from '@wayfarer/test-kit/images';
import { GIF, JPEG, PDF, PNG, SVG, TEXT, WEBP } from '../fixtures';
import {
  claimsOf,
  expectNoTrace,
  identityFor,
  multipart,
  newUser,
  register,
  sessionCookie,
  startAuthPerFile,
  type Harness,
} from './harness';

let h: Harness;
startAuthPerFile((started) => (h = started));

const objectCount = async () => (await h.avatars.list()).length;

describe('POST /api/register', () => {
  it('with a picture: 201, session cookie, user row, avatar in MinIO, served back', async () => {
    const u = newUser('pic');
    const res = await register(h.app, u, [{ data: PNG, filename: 'me.png', type: 'image/png' }]);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ userId: string; message: string }>();
    expect(body.message).toBe('Registration successful!');
    expect(body.userId).toMatch(/^[0-9a-f-]{36}$/);

    const cookie = sessionCookie(res)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: SESSION_TTL_SECONDS,
    });
    expect(cookie.secure).toBeFalsy();
    const verify = createVerifier({
      key: createPublicKey(h.signingKey).export({ format: 'pem', type: 'spki' }).toString(),
    });
    expect(verify(cookie.value)).toMatchObject({ sub: body.userId });

    const { rows } = await h.pool.query('SELECT * FROM users WHERE id = $1', [body.userId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: u.name, email: u.email });
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].avatar_key).toMatch(new RegExp(`^${body.userId}/[a-f0-9]{32}\\.png$`));
    expect(await h.avatars.list(`${body.userId}/`)).toEqual([rows[0].avatar_key]);

    const details = await h.app.inject({
      url: '/api/userDetails',
      headers: identityFor(cookie.value),
    });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual({
      username: u.name,
      profilePicture: `/api/avatars/${rows[0].avatar_key}`,
    });

    const pic = await h.app.inject({
      url: details.json().profilePicture,
      headers: identityFor(cookie.value),
    });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe('image/png');
    expect(pic.headers['cache-control']).toBe('private, max-age=86400');
    expect(pic.headers['x-content-type-options']).toBe('nosniff');
    expect(pic.headers['content-security-policy']).toBe("default-src 'none'");
    expect(Number(pic.headers['content-length'])).toBe(pic.rawPayload.length);
    // re-encoded by the image pipeline: the same picture, not the same bytes
    expect(await sharp(pic.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 1,
      height: 1,
    });

    // only for signed-in callers
    const anon = await h.app.inject({ url: details.json().profilePicture });
    expect(anon.statusCode).toBe(401);
  });

  it.each([
    ['jpeg', JPEG, 'image/jpeg', 'jpeg'],
    ['gif', GIF, 'image/png', 'png'], // a GIF is stored as a PNG of its first frame
    ['webp', WEBP, 'image/webp', 'webp'],
  ])(
    'accepts a %s picture, typed by its content not its name',
    async (_kind, data, contentType, format) => {
      const res = await register(h.app, newUser(), [
        { data, filename: 'pic.png', type: 'text/plain' },
      ]);
      expect(res.statusCode).toBe(201);
      const token = sessionCookie(res)!.value;
      const { profilePicture } = (
        await h.app.inject({ url: '/api/userDetails', headers: identityFor(token) })
      ).json();
      const pic = await h.app.inject({ url: profilePicture, headers: identityFor(token) });
      expect(pic.headers['content-type']).toBe(contentType);
      expect((await sharp(pic.rawPayload).metadata()).format).toBe(format);
    },
  );

  it('without a picture: the default avatar', async () => {
    const res = await register(h.app, newUser('nopic'));
    expect(res.statusCode).toBe(201);
    const token = sessionCookie(res)!.value;
    const details = await h.app.inject({ url: '/api/userDetails', headers: identityFor(token) });
    expect(details.json()).toEqual({ username: 'Ada nopic', profilePicture: DEFAULT_AVATAR });
  });

  it('treats an empty "no file chosen" part as no picture', async () => {
    const res = await register(h.app, newUser(), [{ data: new Uint8Array(0), filename: '' }]);
    expect(res.statusCode).toBe(201);
  });

  it('publishes user.registered to Kafka', async () => {
    const u = newUser('event');
    const res = await register(h.app, u, [{ data: GIF, filename: 'g.gif', type: 'image/gif' }]);
    const { userId } = res.json<{ userId: string }>();
    const [event] = await waitForEvents<{
      type: string;
      aggregateId: string;
      payload: Record<string, string>;
    }>(Topics.authUser, (e) => e.payload.userId === userId);
    expect(event).toMatchObject({
      type: 'user.registered',
      version: 1,
      aggregateId: userId,
      payload: { userId, name: u.name, email: u.email },
    });
    expect(event!.payload.profilePicture).toMatch(
      new RegExp(`^/api/avatars/${userId}/[a-f0-9]{32}\\.png$`), // a GIF is stored as a PNG
    );
    // the relay marks the row published after Kafka acknowledged it: a consumer may be faster
    await expect
      .poll(
        async () =>
          (await h.pool.query('SELECT published_at FROM outbox WHERE key = $1', [userId])).rows[0]
            ?.published_at,
      )
      .toBeInstanceOf(Date);
  });

  it('duplicate email in another case: 409, no second user, no orphan picture', async () => {
    const u = newUser('dup');
    expect((await register(h.app, u)).statusCode).toBe(201);
    await expectNoTrace(h, async () => {
      const res = await register(h.app, { ...u, email: u.email.toUpperCase(), name: 'Other' }, [
        { data: PNG, filename: 'x.png', type: 'image/png' },
      ]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: 'conflict',
        message: 'An account with this email already exists.',
      });
      expect(sessionCookie(res)).toBeUndefined();
    });
  });

  it('concurrent registrations of one email: exactly one wins, the loser leaves no picture', async () => {
    const u = newUser('race');
    const before = await objectCount();
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        register(h.app, u, [{ data: PNG, filename: 'x.png', type: 'image/png' }]),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await objectCount()).toBe(before + 1);
  });

  it.each([
    ['text', TEXT, 'me.png', 'image/png'],
    ['svg', SVG, 'me.svg', 'image/svg+xml'],
    ['pdf', PDF, 'me.pdf', 'application/pdf'],
    ['truncated png', PNG.subarray(0, 10), 'me.png', 'image/png'],
    ['empty file with a name', new Uint8Array(0), 'me.png', 'image/png'],
  ])(
    'a non-image picture (%s): 400, no user, bucket untouched',
    async (_kind, data, filename, type) => {
      await expectNoTrace(h, async () => {
        const res = await register(h.app, newUser(), [{ data, filename, type }]);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: 'bad_request',
          message: 'Profile picture must be a PNG, JPEG, GIF or WebP image.',
        });
      });
    },
  );

  it('an oversized picture: 413 with a clear message, no user', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    await expectNoTrace(h, async () => {
      const res = await register(h.app, newUser(), [
        { data: big, filename: 'big.png', type: 'image/png' },
      ]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error: 'payload_too_large',
        message: 'Profile picture must be at most 5 MB.',
      });
    });
  });

  it('an oversized picture over real HTTP: 413, the connection answers', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const big = Buffer.concat([JPEG, Buffer.alloc(6 * 1024 * 1024)]);
    const body = await multipart(newUser(), [
      { data: big, filename: 'big.jpg', type: 'image/jpeg' },
    ]);
    const res = await fetch(`${address}/api/register`, {
      method: 'POST',
      // what the gateway adds to every request it forwards
      headers: { ...body.headers, ...gatewayHeaders('POST', '/api/register') },
      body: body.payload,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Profile picture must be at most 5 MB.',
    );
  });

  it('a picture exactly at the limit is accepted', async () => {
    // a real PNG padded with a text chunk (its chunk header, keyword and NUL take 20 bytes)
    const exact = pngWithText(PNG, 'Comment', 'x'.repeat(5 * 1024 * 1024 - PNG.length - 20));
    expect(exact.length).toBe(5 * 1024 * 1024);
    const res = await register(h.app, newUser(), [
      { data: exact, filename: 'max.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(201);
  });
});

describe('session token from register', () => {
  it('carries sub, jti and a 7-day expiry', async () => {
    const res = await register(h.app, newUser());
    const claims = claimsOf(sessionCookie(res)!.value);
    expect(claims.sub).toBe(res.json().userId);
    expect(claims.exp - claims.iat).toBe(SESSION_TTL_SECONDS);
  });
});
