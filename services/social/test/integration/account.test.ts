import { describe, expect, it, vi } from 'vitest';
import {
  makeEvent,
  Topics,
  UserDeleted,
  UserUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { tablesHolding, waitForEvents } from '@wayfarer/test-kit';
import { type Harness, socialPerFile } from './harness';

// social follows auth's user.updated (friends' lists, requests and search show the
// new name and picture) and erases a closed account on user.deleted

const waitOptions = { timeout: 20_000, interval: 50 };
const ROME = { name: 'Rome', latitude: 41.9, longitude: 12.5 };

let h: Harness;
socialPerFile((harness) => (h = harness), { timeout: 60_000 });

const publish = (event: EventEnvelope) => h.publishEnvelope(Topics.authUser, event);

/** Tables of social's database with a row whose text contains `text`. */
const tablesNaming = (text: string) => tablesHolding(h.pool, [text]);

describe('user.updated', () => {
  it("a friend's list, a request and a search show the new name and picture", async () => {
    const ada = await h.register('Ada Before');
    const bob = await h.register('Bob');
    const cat = await h.register('Cat');
    await h.befriend(ada, bob);
    expect((await h.addFriend(ada, cat)).statusCode).toBe(200); // pending: Cat sees a request
    expect((await h.friends(bob)).map((f) => f.name)).toEqual(['Ada Before']); // cached page

    const picture = `/api/avatars/${ada}/${'b'.repeat(32)}.png`;
    await publish(
      makeEvent(UserUpdated, ada, { userId: ada, name: 'Ada After', profilePicture: picture }),
    );
    await vi.waitFor(async () => {
      const [friend] = await h.friends(bob);
      expect(friend).toMatchObject({ id: ada, name: 'Ada After', picture });
    }, waitOptions);
    expect(await h.requests(cat)).toEqual([{ _id: ada, name: 'Ada After', picture }]);
    const found = await h.search(cat, 'after');
    expect(found.map((u) => [u._id, u.name, u.picture])).toEqual([[ada, 'Ada After', picture]]);
    expect(await h.search(cat, 'before')).toEqual([]);
  });
});

describe('user.deleted', () => {
  it('erases the user: friendships announced as erased, requests, trips, keys, outbox rows', async () => {
    const gone = await h.register('Gone Soon');
    const bob = await h.register('Bob Stays');
    const cat = await h.register('Cat Stays');
    const dan = await h.register('Dan Asked');
    await h.befriend(gone, bob);
    await h.befriend(gone, cat);
    await h.befriend(bob, cat);
    expect((await h.addFriend(dan, gone)).statusCode).toBe(200);
    const trip = await h.createTrip(gone, [ROME], { name: 'Gone trip' });
    await vi.waitFor(async () => {
      const [friend] = (await h.friends(bob)).filter((f) => f.id === gone);
      expect(friend?.trips).toHaveLength(1);
    }, waitOptions);
    expect(await tablesNaming(gone)).not.toEqual([]);

    await publish(makeEvent(UserDeleted, gone, { userId: gone }));
    await vi.waitFor(async () => {
      expect((await h.friends(bob)).map((f) => f.id)).toEqual([cat]);
    }, waitOptions);
    expect((await h.friends(cat)).map((f) => f.id)).toEqual([bob]);
    expect(await h.requests(dan)).toEqual([]);
    expect(await h.search(bob, 'gone')).toEqual([]);
    expect((await h.addFriend(bob, gone)).statusCode).toBe(404);

    // each friendship goes out as erased; once sent, social's outbox forgets them too
    const erased = await waitForEvents<{
      type: string;
      payload: { userIds: string[]; erased?: boolean };
    }>(
      Topics.socialFriendship,
      (e) => e.type === 'friendship.removed' && e.payload.userIds.includes(gone),
      { count: 2 },
    );
    expect(erased.every((e) => e.payload.erased === true)).toBe(true);
    // trips' trip.deleted of the erasure may come after: its tombstone names no owner
    const { payload } = trip as EventEnvelope<{ tripId: string }>;
    await h.deleteTrip(gone, payload.tripId);
    await vi.waitFor(async () => {
      const { rows } = await h.pool.query('SELECT deleted FROM trips WHERE id = $1', [
        payload.tripId,
      ]);
      expect(rows).toEqual([{ deleted: true }]);
    }, waitOptions);
    await vi.waitFor(async () => expect(await tablesNaming(gone)).toEqual([]), waitOptions);
  });
});
