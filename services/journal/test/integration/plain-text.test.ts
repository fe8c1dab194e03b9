import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityHeaders } from '@wayfarer/contracts';
import { readable, startJournal, type Harness } from './harness';

/*
 * Every text input of journal is plain text: content is multi-line (tabs and line
 * breaks kept), the destination id one line; a control character or a lone surrogate is a 400
 * naming the field, and nothing is saved (a lone surrogate used to be stored as U+FFFD, a NUL
 * as it was). A JSON body in another charset than UTF-8 is a 415.
 */

let h: Harness;
let owner: string;
let dest: string;
const SAVED = 'Day one:\tFlåm\r\nDay two: Bergen 🌧';

beforeAll(async () => {
  h = await startJournal();
  owner = h.id('owner');
  dest = h.id('dest');
  await h.createTrip(owner, [dest]);
  await readable(h, owner, dest);
  expect((await h.post(owner, { destinationId: dest, content: SAVED })).statusCode).toBe(200);
});

afterAll(async () => {
  await h?.close();
});

const content = async () => ((await h.get(owner, dest)).json() as { content: string }).content;

describe('journal refuses what is not plain text, and saves nothing', () => {
  it.each([
    [
      'a NUL in content',
      { content: 'x\u0000y' },
      'content: must not contain control characters (only tabs and line breaks are): found U+0000 at position 2.',
    ],
    [
      'an escape in content',
      { content: '\u001b[2J' },
      'content: must not contain control characters (only tabs and line breaks are): found U+001B at position 1.',
    ],
    [
      'a lone surrogate in content',
      { content: 'rain \ud83c' },
      'content: must be valid Unicode text: found a lone surrogate U+D83C at position 6.',
    ],
  ])('POST /api/journal with %s is a 400', async (_name, body, message) => {
    const res = await h.post(owner, { destinationId: dest, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
    expect(await content()).toBe(SAVED);
  });

  it('POST /api/journal with a NUL in destinationId is a 400', async () => {
    const res = await h.post(owner, { destinationId: `${dest}\u0000`, content: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      /^destinationId: must not contain control characters: found U\+0000/,
    );
  });

  it('GET /api/journal/%00 is a 400 naming the path parameter', async () => {
    const res = await h.app.inject({
      url: '/api/journal/%00',
      headers: { [IdentityHeaders.userId]: owner },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message:
        'Path parameter destinationId must not contain control characters: found U+0000 at position 1.',
    });
  });

  it('a body declared as UTF-16 is a 415, and nothing is saved', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/journal',
      headers: {
        'content-type': 'application/json; charset=utf-16',
        [IdentityHeaders.userId]: owner,
      },
      payload: JSON.stringify({ destinationId: dest, content: 'overwritten' }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json<{ error: string }>().error).toBe('unsupported_media_type');
    expect(await content()).toBe(SAVED);
  });
});
