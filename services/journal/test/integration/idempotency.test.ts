import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyMessages,
  IdentityHeaders,
  Topics,
} from '@wayfarer/contracts';
import { readTopicToEnd } from '@wayfarer/test-kit';
import { readable, startJournal, type Harness } from './harness';

let h: Harness;
let ann: string;
let bob: string;
let annDests: string[];
let bobDest: string;

beforeAll(async () => {
  h = await startJournal();
  ann = h.id('ann');
  bob = h.id('bob');
  annDests = ['d1', 'd2', 'd3', 'd4', 'd5'].map((d) => h.id(`ann-${d}`));
  bobDest = h.id('bob-d1');
  await h.createTrip(ann, annDests);
  await h.createTrip(bob, [bobDest]);
  await h.befriend(ann, bob);
  for (const d of annDests) await readable(h, ann, d);
  await readable(h, bob, bobDest);
});

afterAll(async () => {
  await h?.close();
});

/** `POST /api/journal` as `userId` with `key` as its Idempotency-Key. */
const save = (userId: string, key: string, destinationId: string, content: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/journal',
    headers: {
      'content-type': 'application/json',
      [IDEMPOTENCY_KEY_HEADER]: key,
      [IdentityHeaders.userId]: userId,
    },
    payload: JSON.stringify({ destinationId, content, date: '2026-05-02T10:00:00.000Z' }),
  });

const entry = (destinationId: string) =>
  h.stores.entries.collection.findOne({ _id: destinationId });

/** The `journal.saved` events published for a destination, once the outbox is drained. */
async function savedEvents(destinationId: string): Promise<number> {
  await vi.waitFor(
    async () => {
      await h.relay.flush();
      expect((await entry(destinationId))?.outbox ?? []).toEqual([]);
    },
    { timeout: 20_000, interval: 50 },
  );
  const ids = new Set<string>();
  for (const { json } of await readTopicToEnd(Topics.journalEntry)) {
    const event = json as { id: string; payload?: { destinationId?: string } } | null;
    if (event?.payload?.destinationId === destinationId) ids.add(event.id);
  }
  return ids.size;
}

describe('POST /api/journal with an Idempotency-Key (real MongoDB-wire server + Kafka)', () => {
  it('answers a retry with the first answer and writes nothing: no second journal.saved', async () => {
    const dest = annDests[0]!;
    const key = crypto.randomUUID();
    const first = await save(ann, key, dest, 'Fjords and rain.');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    const written = await entry(dest);

    const retry = await save(ann, key, dest, 'Fjords and rain.');
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect((await entry(dest))?.updatedAt).toEqual(written?.updatedAt);
    expect(await savedEvents(dest)).toBe(1);
  });

  it('answers the same key with another text or destination 422, changing nothing', async () => {
    const [dest, otherDest] = [annDests[1]!, annDests[2]!];
    const key = crypto.randomUUID();
    expect((await save(ann, key, dest, 'First text.')).statusCode).toBe(200);
    for (const other of [
      await save(ann, key, dest, 'Another text.'),
      await save(ann, key, otherDest, 'First text.'),
    ]) {
      expect(other.statusCode).toBe(422);
      expect(other.json().message).toBe(IdempotencyMessages.mismatch);
    }
    expect((await h.get(ann, dest)).json().content).toBe('First text.');
    expect((await h.get(ann, otherDest)).json().content).toBe('');
  });

  it("treats another user's same key as unrelated", async () => {
    const key = crypto.randomUUID();
    expect((await save(ann, key, annDests[3]!, 'Ann writes.')).statusCode).toBe(200);
    const bobs = await save(bob, key, bobDest, 'Bob writes.');
    expect(bobs.statusCode).toBe(200);
    expect(bobs.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
    expect((await h.get(bob, bobDest)).json().content).toBe('Bob writes.');
  });

  it('writes once for concurrent saves with the same key, all answered alike', async () => {
    const dest = annDests[4]!;
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => save(ann, key, dest, 'Once only.')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    expect(answers.filter((a) => a.headers[IDEMPOTENT_REPLAY_HEADER] === undefined)).toHaveLength(
      1,
    );
    expect(await savedEvents(dest)).toBe(1);
  });

  it('refuses a malformed key with a 400, and records no key for a refused save', async () => {
    const bad = await save(ann, 'bad key', annDests[0]!, 'x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(IdempotencyMessages.badKey);
    const key = crypto.randomUUID();
    // bob may read ann's journal but not write it: 403, and the key stays free for him
    expect((await save(bob, key, annDests[0]!, 'Not mine.')).statusCode).toBe(403);
    expect((await save(bob, key, bobDest, 'Mine.')).statusCode).toBe(200);
  });
});
