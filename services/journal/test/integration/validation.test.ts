import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalLimits } from '@wayfarer/contracts';
import { readable, startJournal, type Harness } from './harness';

let h: Harness;
let owner: string;
let dest: string;

beforeAll(async () => {
  h = await startJournal();
  owner = h.id('owner');
  dest = h.id('dest');
  await h.createTrip(owner, [dest]);
  await readable(h, owner, dest);
});

afterAll(async () => {
  await h?.close();
});

function expect400(res: { statusCode: number; json(): unknown }, message?: RegExp) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { error: string; message: string };
  expect(body.error).toBeTruthy();
  expect(body.message).toBeTruthy();
  if (message) expect(body.message).toMatch(message);
}

describe('POST /api/journal: bad bodies get 400, never 500, and write nothing', () => {
  it('missing destinationId', async () => {
    expect400(await h.post(owner, { content: 'x' }), /destinationId/);
  });

  it('content too long', async () => {
    const content = 'a'.repeat(JournalLimits.contentMax + 1);
    expect400(await h.post(owner, { destinationId: dest, content }), /at most 20000 characters/);
    // exactly at the limit is fine
    const ok = await h.post(owner, { destinationId: dest, content: content.slice(1) });
    expect(ok.statusCode).toBe(200);
    expect(((await h.get(owner, dest)).json() as { content: string }).content).toHaveLength(
      JournalLimits.contentMax,
    );
  });

  it('non-JSON', async () => {
    expect400(await h.post(owner, '{"destinationId": "x", content'));
    const text = await h.app.inject({
      method: 'POST',
      url: '/api/journal',
      headers: { 'content-type': 'text/plain', 'x-user-id': owner },
      payload: 'just some text',
    });
    expect400(text);
    const empty = await h.app.inject({
      method: 'POST',
      url: '/api/journal',
      headers: { 'content-type': 'application/json', 'x-user-id': owner },
    });
    expect400(empty);
    const none = await h.app.inject({
      method: 'POST',
      url: '/api/journal',
      headers: { 'x-user-id': owner },
    });
    expect400(none);
  });

  it('wrong types', async () => {
    for (const body of [
      null,
      [],
      'a string',
      42,
      { destinationId: 42, content: 'x' },
      { destinationId: dest, content: 42 },
      { destinationId: dest, content: null },
      { destinationId: dest, content: ['x'] },
      { destinationId: dest, content: 'x', date: 'yesterday' },
      { destinationId: dest, content: 'x', date: 1714550400000 },
      { destinationId: { $ne: null }, content: 'x' },
      { destinationId: '', content: 'x' },
      { destinationId: 'a.b', content: 'x' },
      { destinationId: '$where', content: 'x' },
      { destinationId: 'x'.repeat(101), content: 'x' },
    ]) {
      const res = await h.post(owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await h.stores.entries.collection.countDocuments({})).toBe(1);
  });

  it('a body above the size limit gets 413', async () => {
    const res = await h.post(owner, { destinationId: dest, content: 'a'.repeat(300 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});

describe('GET /api/journal/:destinationId validates the id', () => {
  it.each([
    ['too long', 'x'.repeat(101)],
    ['a dot', 'a.b'],
    ['a dollar', '$ne'],
    ['a space', 'a b'],
    ['non-ASCII', 'münchen'],
  ])('%s: 400', async (_name, id) => {
    const res = await h.get(owner, id);
    expect400(res, /destinationId/);
  });

  it('an empty id', async () => {
    expect400(await h.get(owner, ''), /destinationId/);
  });
});
