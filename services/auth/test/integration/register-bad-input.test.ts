import { describe, expect, it } from 'vitest';
import { GIF, PNG } from '../fixtures';
import {
  expectNoTrace,
  multipart,
  newUser,
  sessionCookie,
  startAuthPerFile,
  type Harness,
} from './harness';

let h: Harness;
startAuthPerFile((started) => (h = started));

describe('POST /api/register', () => {
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
      await expectNoTrace(h, async () => {
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
