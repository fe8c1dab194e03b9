import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserDeleted } from '@wayfarer/contracts';
import { collectionsHolding } from '@wayfarer/test-kit';
import { readable, startJournal, type Harness } from './harness';

// auth's user.deleted makes journal erase the user's entries, destinations and
// friendships; trips' later trip.deleted leaves tombstones naming no owner

let h: Harness;
beforeAll(async () => {
  h = await startJournal();
});
afterAll(async () => {
  await h?.close();
});

/** Collections of journal's database with a document whose JSON contains `text`. */
const collectionsNaming = (text: string) => collectionsHolding(h.db, [text]);

describe('user.deleted', () => {
  it("erases the user's entries, destinations and friendships; a friend's stay", async () => {
    const gone = h.id('gone');
    const friend = h.id('friend');
    const [mine, theirs] = [h.id('d-mine'), h.id('d-theirs')];
    const trip = h.id('t-mine');
    await h.createTrip(gone, [mine], trip);
    await h.createTrip(friend, [theirs]);
    await h.befriend(gone, friend);
    await readable(h, gone, theirs); // every projection applied
    expect(
      (await h.post(gone, { destinationId: mine, content: 'Mine', date: '2026-05-02' })).statusCode,
    ).toBe(200);
    expect(
      (await h.post(friend, { destinationId: theirs, content: 'Theirs', date: '2026-05-02' }))
        .statusCode,
    ).toBe(200);
    expect(await collectionsNaming(gone)).toEqual(
      expect.arrayContaining(['entries', 'destinations', 'friendships']),
    );

    await h.publish(UserDeleted, gone, { userId: gone });
    await vi.waitFor(async () => expect(await collectionsNaming(gone)).toEqual([]), {
      timeout: 20_000,
      interval: 50,
    });
    // the erasure's trip.deleted, after it: a tombstone, no owner
    await h.deleteTrip(gone, [mine], trip);
    await vi.waitFor(async () => {
      const doc = await h.stores.destinations.collection.findOne({ _id: mine });
      expect(doc?.deletedAt).toBeTruthy();
    });
    expect(await collectionsNaming(gone)).toEqual([]);
    expect((await h.get(friend, theirs)).json().content).toBe('Theirs');
    expect((await h.get(friend, mine)).statusCode).toBe(404);
  });
});
