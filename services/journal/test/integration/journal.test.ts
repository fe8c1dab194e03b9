import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { hidden, readable, startJournal, type Harness } from './harness';

let h: Harness;
let owner: string;
let friend: string;
let stranger: string;
let dest: string;
let other: string;

beforeAll(async () => {
  h = await startJournal();
  owner = h.id('owner');
  friend = h.id('friend');
  stranger = h.id('stranger');
  dest = h.id('dest');
  other = h.id('other');
  await h.createTrip(owner, [dest, other]);
  await h.befriend(owner, friend);
  await readable(h, owner, dest);
  await readable(h, friend, dest);
});

afterAll(async () => {
  await h?.close();
});

describe('GET /api/journal/:destinationId', () => {
  it('gives the owner an empty journal before anything is written', async () => {
    const res = await h.get(owner, other);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ content: '', message: 'Journal retrieved.' });
  });

  it('answers 404 for an unknown destination, with the same text as for a hidden one', async () => {
    const unknown = await h.get(owner, h.id('nowhere'));
    const hiddenRes = await h.get(stranger, dest);
    expect(unknown.statusCode).toBe(404);
    expect(hiddenRes.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Journal not found.' });
    expect(hiddenRes.json()).toEqual(unknown.json());
  });

  it('needs the identity the gateway forwards', async () => {
    const res = await h.get(null, dest);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });
});

describe('POST /api/journal', () => {
  it('lets the owner write and read it back, keeping the client date and the server time', async () => {
    const date = '2026-05-02T10:11:12.000Z';
    const before = Date.now();
    const res = await h.post(owner, {
      destinationId: dest,
      content: 'Sunrise over the bay.',
      date,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Journal saved.' });

    const read = await h.get(owner, dest);
    expect(read.json()).toEqual({
      content: 'Sunrise over the bay.',
      message: 'Journal retrieved.',
    });

    const doc = await h.stores.entries.collection.findOne({ _id: dest });
    expect(doc).toMatchObject({
      _id: dest,
      ownerId: owner,
      content: 'Sunrise over the bay.',
      date,
    });
    expect(doc!.updatedAt).toBeInstanceOf(Date);
    expect(doc!.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
  });

  it('overwrites on a second save and accepts an empty content', async () => {
    expect((await h.post(owner, { destinationId: other, content: 'first' })).statusCode).toBe(200);
    expect((await h.post(owner, { destinationId: other, content: 'second' })).statusCode).toBe(200);
    expect((await h.get(owner, other)).json()).toMatchObject({ content: 'second' });
    expect((await h.post(owner, { destinationId: other, content: '' })).statusCode).toBe(200);
    expect((await h.get(owner, other)).json()).toMatchObject({ content: '' });
    // no date sent: the server's time stands in
    const doc = await h.stores.entries.collection.findOne({ _id: other });
    expect(doc!.date).toBe(doc!.updatedAt.toISOString());
  });

  it('publishes journal.saved through the outbox and empties the outbox', async () => {
    const date = '2026-05-03';
    expect(
      (await h.post(owner, { destinationId: dest, content: 'Day three.', date })).statusCode,
    ).toBe(200);
    const [event] = await waitForEvents<{ type: string; aggregateId: string; payload: unknown }>(
      Topics.journalEntry,
      (e) =>
        e.type === 'journal.saved' &&
        e.aggregateId === dest &&
        (e.payload as { date?: string }).date === date,
    );
    // the saved text rides along (trips shows it on links that include stories)
    expect(event!.payload).toEqual({
      destinationId: dest,
      ownerId: owner,
      date,
      content: 'Day three.',
    });
    await expect
      .poll(async () => (await h.stores.entries.collection.findOne({ _id: dest }))?.outbox ?? [], {
        message: 'the outbox to be relayed',
        timeout: 20_000,
      })
      .toEqual([]);
  });

  it('lets a friend read but not write (403)', async () => {
    const read = await h.get(friend, dest);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ content: 'Day three.', message: 'Journal retrieved.' });

    const write = await h.post(friend, { destinationId: dest, content: 'hijacked' });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({
      error: 'forbidden',
      message: 'Only the owner can edit this journal.',
    });
    expect((await h.get(owner, dest)).json()).toMatchObject({ content: 'Day three.' });
  });

  it('hides it from a stranger on read and write (404), and from an unknown destination', async () => {
    expect((await h.get(stranger, dest)).statusCode).toBe(404);
    const write = await h.post(stranger, { destinationId: dest, content: 'hello' });
    expect(write.statusCode).toBe(404);
    expect(write.json()).toEqual({ error: 'not_found', message: 'Journal not found.' });
    const unknown = await h.post(owner, { destinationId: h.id('nowhere'), content: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(await h.stores.entries.collection.findOne({ _id: h.id('nowhere') })).toBeNull();
  });

  it('ignores a client-sent ownerId or userId', async () => {
    // a stranger claiming to be the owner is still a stranger
    const claim = await h.post(stranger, {
      destinationId: dest,
      content: 'mine now',
      ownerId: stranger,
      userId: owner,
    });
    expect(claim.statusCode).toBe(404);
    // the owner's own save stores the verified identity, not the body's
    const res = await h.post(owner, {
      destinationId: dest,
      content: 'Still mine.',
      ownerId: stranger,
      userId: stranger,
    });
    expect(res.statusCode).toBe(200);
    const doc = await h.stores.entries.collection.findOne({ _id: dest });
    expect(doc).toMatchObject({ ownerId: owner, content: 'Still mine.' });
    expect(doc).not.toHaveProperty('userId');
  });

  it('needs the identity the gateway forwards', async () => {
    const res = await h.post(null, { destinationId: dest, content: 'anon' });
    expect(res.statusCode).toBe(401);
  });
});

describe('concurrent writes to one entry (single-document atomicity, no locks)', () => {
  it('a save never loses to the relay acknowledging the previous one', async () => {
    const dest2 = h.id('busy');
    await h.createTrip(owner, [dest2]);
    await readable(h, owner, dest2);
    for (let i = 0; i < 40; i++) {
      expect((await h.post(owner, { destinationId: dest2, content: `v${i}` })).statusCode).toBe(
        200,
      );
      expect((await h.get(owner, dest2)).json(), `save ${i}`).toMatchObject({ content: `v${i}` });
    }
    const events = await waitForEvents<{ type: string; aggregateId: string }>(
      Topics.journalEntry,
      (e) => e.type === 'journal.saved' && e.aggregateId === dest2,
      { count: 40 },
    );
    expect(events).toHaveLength(40);
  });

  it('parallel saves keep one of the texts and every journal.saved event', async () => {
    const dest3 = h.id('parallel');
    await h.createTrip(owner, [dest3]);
    await readable(h, owner, dest3);
    const dates = Array.from({ length: 10 }, (_, i) => `2026-06-${String(i + 10)}`);
    const answers = await Promise.all(
      dates.map((date, i) => h.post(owner, { destinationId: dest3, content: `p${i}`, date })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(dates.map(() => 200));
    const { content } = (await h.get(owner, dest3)).json() as { content: string };
    expect(dates.map((_, i) => `p${i}`)).toContain(content);
    const events = await waitForEvents<{ aggregateId: string; payload: { date: string } }>(
      Topics.journalEntry,
      (e) => e.aggregateId === dest3,
      { count: 10 },
    );
    expect(new Set(events.map((e) => e.payload.date))).toEqual(new Set(dates));
  });
});

describe('friendship changes', () => {
  it('hides the journal from an ex-friend after friendship.removed', async () => {
    const exFriend = h.id('exfriend');
    await h.befriend(exFriend, owner);
    await readable(h, exFriend, dest);
    await h.unfriend(owner, exFriend);
    const res = await hidden(h, exFriend, dest);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Journal not found.' });
    expect((await h.post(exFriend, { destinationId: dest, content: 'x' })).statusCode).toBe(404);
    // the remaining friend still reads
    expect((await h.get(friend, dest)).statusCode).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('checks MongoDB', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', checks: { mongo: 'ok' } });
  });
});
