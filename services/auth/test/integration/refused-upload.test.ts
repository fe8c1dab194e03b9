import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayHeaders, postFormOverHttp, type HttpOutcome } from '@wayfarer/test-kit';
import { NOT_AN_IMAGE_MESSAGE } from '../../src/domain/registration';
import { newUser, startAuth, type Harness } from './harness';

/*
 * A refused profile picture must reach the client as auth's 400, over real HTTP:
 * auth refuses a non-image by its first bytes while the client is still sending, and used to
 * answer and close the connection at once (a browser's network error, the gateway's 502). It
 * now reads the rest of the body, up to the form's limit, before answering.
 */

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startAuth();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await h?.close();
});

const KB = 1024;
const TRIES = 5;

/** Registers `user` with a picture of `bytes` bytes of text; what the client saw, and the accounts. */
async function registerWithText(bytes: number, extra: [string, string][] = []) {
  const user = newUser('text-picture');
  const form = new FormData();
  for (const [name, value] of [...Object.entries(user), ...extra]) form.append(name, value);
  form.append(
    'profilePicture',
    new Blob([Buffer.alloc(bytes, 'a')], { type: 'text/plain' }),
    'me.txt',
  );
  const outcome = await postFormOverHttp(
    `${base}/api/register`,
    form,
    gatewayHeaders('POST', '/api/register'),
  );
  const { rowCount } = await h.pool.query('SELECT 1 FROM users WHERE email = $1', [user.email]);
  return { outcome, taken: rowCount !== 0 };
}

const answered = (message: string): HttpOutcome => ({
  status: 400,
  body: { error: 'bad_request', message },
  answeredBeforeBodySent: false,
  connectionClosed: false,
});

describe('POST /api/register with a profile picture that is not an image, over real HTTP', () => {
  it.each([
    ['1 KB', KB],
    ['300 KB', 300 * KB],
    ['3 MB', 3 * KB * KB],
  ])('answers the 400 every time with a %s file, and registers nobody', async (_size, bytes) => {
    const results = [];
    for (let i = 0; i < TRIES; i++) results.push(await registerWithText(bytes));
    expect(results).toEqual(
      Array.from({ length: TRIES }, () => ({
        outcome: answered(NOT_AN_IMAGE_MESSAGE),
        taken: false,
      })),
    );
  });

  it('answers a field refused before the picture once the 3 MB picture is read too', async () => {
    const { outcome, taken } = await registerWithText(3 * KB * KB, [['nickname', 'Ada']]);
    expect(outcome).toEqual(answered('Unexpected field "nickname".'));
    expect(taken).toBe(false);
  });
});
