import { createPublicKey } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR, SESSION_TTL_SECONDS, Topics } from '@wayfarer/contracts';
import { gatewayHeaders, waitForEvents } from '@wayfarer/test-kit';
import { pngWithText } from '@wayfarer/test-kit/images';
import { GIF, JPEG, PDF, PNG, SVG, TEXT, WEBP } from '../fixtures';
import {
  claimsOf,
  identityFor,
  multipart,
  newUser,
  register,
  sessionCookie,
  startAuth,
  type Harness,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(async () => {
  await h?.close();
});

const userCount = async () =>
  Number((await h.pool.query('SELECT count(*) FROM users')).rows[0].count);
const objectCount = async () => (await h.avatars.list()).length;

/** Runs `fn` and checks it created no user and left nothing in the bucket. */
async function expectNoTrace(fn: () => Promise<void>) {
  const [users, objects] = [await userCount(), await objectCount()];
  await fn();
  expect(await userCount()).toBe(users);
  expect(await objectCount()).toBe(objects);
}

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
    await expectNoTrace(async () => {
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
      await expectNoTrace(async () => {
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
    await expectNoTrace(async () => {
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

  describe('bad input: 4xx with a message, never 500, never a partial write', () => {
    const cases: [
      string,
      () => Promise<{ payload: Buffer | string; headers: Record<string, string> }>,
      number,
      RegExp,
    ][] = [
      [
        'missing name',
        () => multipart({ email: 'a@example.com', password: 'password123' }),
        400,
        /Name is required/,
      ],
      [
        'missing everything',
        () => multipart({}),
        400,
        /Name is required\. Email is required\. Password is required\./,
      ],
      [
        'bad email',
        () => multipart({ ...newUser(), email: 'not-an-email' }),
        400,
        /email: Email must be a valid email address/,
      ],
      [
        'short password',
        () => multipart({ ...newUser(), password: 'short' }),
        400,
        /at least 8 characters/,
      ],
      ['blank name', () => multipart({ ...newUser(), name: '   ' }), 400, /Name is required/],
      [
        'unknown field',
        () => multipart({ ...newUser(), isAdmin: 'true' }),
        400,
        /Unexpected field "isAdmin"/,
      ],
      [
        'field sent twice',
        async () => {
          const u = newUser();
          const form = new FormData();
          form.append('name', u.name);
          form.append('email', u.email);
          form.append('email', 'other@example.com');
          form.append('password', u.password);
          const res = new Response(form);
          return {
            payload: Buffer.from(await res.arrayBuffer()),
            headers: { 'content-type': res.headers.get('content-type')! },
          };
        },
        400,
        /sent more than once/,
      ],
      [
        'picture sent as text',
        () => multipart({ ...newUser(), profilePicture: 'http://evil/x.png' }),
        400,
        /must be an image file/,
      ],
      [
        'file in another field',
        () => multipart(newUser(), [{ field: 'avatar', data: PNG, filename: 'a.png' }]),
        400,
        /Unexpected file "avatar"/,
      ],
      [
        'two pictures',
        () =>
          multipart(newUser(), [
            { data: PNG, filename: 'a.png' },
            { data: GIF, filename: 'b.gif' },
          ]),
        400,
        /Only one file/,
      ],
      [
        'too many fields',
        () => multipart(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x']))),
        4,
        /./,
      ],
      [
        'huge text field',
        () => multipart({ ...newUser(), name: 'x'.repeat(2 * 1024 * 1024) }),
        400,
        /name field is too long/,
      ],
      [
        'name over 80 characters',
        () => multipart({ ...newUser(), name: 'x'.repeat(81) }),
        400,
        /at most 80 characters/,
      ],
      [
        'JSON body',
        async () => ({
          payload: JSON.stringify(newUser()),
          headers: { 'content-type': 'application/json' },
        }),
        415,
        /multipart\/form-data/,
      ],
      [
        'urlencoded body',
        async () => ({
          payload: 'name=a&email=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        /./,
      ],
      [
        'multipart without boundary',
        async () => ({ payload: 'garbage', headers: { 'content-type': 'multipart/form-data' } }),
        400,
        /malformed/,
      ],
      [
        'truncated multipart',
        async () => {
          const body = await multipart(newUser(), [{ data: PNG, filename: 'a.png' }]);
          return {
            payload: body.payload.subarray(0, body.payload.length - 60),
            headers: body.headers,
          };
        },
        400,
        /./,
      ],
      [
        'garbage with a boundary',
        async () => ({
          payload: Buffer.from('\x00\x01 not multipart at all'),
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        }),
        400,
        /./,
      ],
      [
        'bad part headers',
        async () => ({
          payload: '--xyz\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--xyz--\r\n',
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        }),
        400,
        /./,
      ],
      [
        '__proto__ field',
        async () => ({
          payload:
            '--xyz\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nvalue\r\n--xyz--\r\n',
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        }),
        400,
        /./,
      ],
    ];
    it.each(cases)('%s', async (_name, build, status, message) => {
      await expectNoTrace(async () => {
        const body = await build();
        const res = await h.app.inject({ method: 'POST', url: '/api/register', ...body });
        if (status === 4) {
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
        } else {
          expect(res.statusCode).toBe(status);
        }
        const json = res.json<{ error: string; message: string }>();
        expect(json.error).toEqual(expect.any(String));
        expect(json.message).toMatch(message);
        expect(sessionCookie(res)).toBeUndefined();
      });
    });
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
