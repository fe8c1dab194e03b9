import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import { tablesHolding, testKafka } from '@wayfarer/test-kit';
import { newUserId, startBucketList, type Harness } from './harness';

// auth's user.deleted makes bucketlist erase the user's places, itineraries, keys
// and outbox rows

let h: Harness;
beforeAll(async () => {
  h = await startBucketList();
});
afterAll(async () => {
  await h?.close();
});

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const ROME = { latitude: 41.9, longitude: 12.5 };

/** Tables of bucketlist's database with a row whose text contains `text`. */
const tablesNaming = (text: string) => tablesHolding(h.pool, [text]);

describe('user.deleted', () => {
  it("erases the user's places, itineraries, keys and outbox rows; another's stay", async () => {
    const gone = newUserId();
    const other = newUserId();
    const paris = await h.addPlace(gone, 'Paris', PARIS);
    await h.addPlace(gone, 'Rome', ROME);
    const kept = await h.addPlace(other, 'Paris', PARIS);
    expect(
      (await h.saveItinerary(gone, { bucketListId: paris._id, itinerary: ['Louvre'] })).statusCode,
    ).toBe(200);
    const keyed = await h.app.inject({
      method: 'POST',
      url: '/api/bucketlist',
      headers: { 'x-user-id': gone, 'idempotency-key': `erase-${gone}` },
      payload: { place: 'Lima', latitude: -12.05, longitude: -77.04, isVisited: false },
    });
    expect(keyed.statusCode).toBe(201);
    expect(await tablesNaming(gone)).toEqual(
      expect.arrayContaining(['public.bucket_items', 'public.idempotency_keys', 'public.outbox']),
    );

    const producer = testKafka().producer();
    await producer.connect();
    await producer.send({
      topic: Topics.authUser,
      messages: [
        { key: gone, value: JSON.stringify(makeEvent(UserDeleted, gone, { userId: gone })) },
      ],
    });
    await producer.disconnect();
    await vi.waitFor(async () => expect(await tablesNaming(gone)).toEqual([]), {
      timeout: 20_000,
      interval: 50,
    });
    expect(await h.list(gone)).toEqual([]);
    expect((await h.list(other)).map((i) => i._id)).toEqual([kept._id]);
  });
});
