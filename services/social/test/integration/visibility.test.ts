import { describe, expect, it, vi } from 'vitest';
import {
  SocialMessages,
  type EventEnvelope,
  type Friend,
  type TripVisibility,
} from '@wayfarer/contracts';
import { as, waitOptions, type Harness, socialPerFile } from './harness';

/**
 * A private trip never reaches another user through social. Created private it never
 * enters a friend's `/api/friends` (nor accept's `newFriend`, nor the feed); made private it
 * leaves them within the event lag, even from a page the friends cache holds; made `friends`
 * again it comes back. Its destinations answer a friend the same 404 as an unknown id.
 */

let h: Harness;
socialPerFile((harness) => (h = harness), { cacheListening: true });

const ROME = { latitude: 41.9028, longitude: 12.4964 };

const destination = (userId: string, friendId: string, destinationId: string) =>
  h.app.inject({
    url: `/api/friends/${encodeURIComponent(friendId)}/destinations/${encodeURIComponent(destinationId)}`,
    headers: as(userId),
  });

const notFound = { error: 'not_found', message: SocialMessages.destinationNotFound };

const tripIdsOf = (friends: Friend[], friendId: string) =>
  friends.find((f) => f.id === friendId)?.trips.map((t) => t._id) ?? [];

/** Waits until social has applied the trip's event of `version` (its row holds it). */
async function applied(tripId: string, version: number, visibility: TripVisibility) {
  await vi.waitFor(async () => {
    const { rows } = await h.pool.query<{ version: number; visibility: string }>(
      'SELECT version, visibility FROM trips WHERE id = $1',
      [tripId],
    );
    expect(rows).toEqual([{ version, visibility }]);
  }, waitOptions);
}

/** Publishes `trip.updated` as trips does: the trip as created, its new version and visibility. */
async function setVisibility(
  created: EventEnvelope,
  version: number,
  visibility: TripVisibility | undefined,
) {
  await h.updateTrip(created, version, visibility ? { visibility } : {});
}

/** `userId`'s first page of `/api/friends` read until the friends cache answers it. */
async function cachedFirstPage(userId: string): Promise<Friend[]> {
  return vi.waitFor(async () => {
    await h.app.inject({ url: '/api/friends', headers: as(userId) });
    const hits = h.friendsPages.cache!.stats().hits;
    const res = await h.app.inject({ url: '/api/friends', headers: as(userId) });
    expect(h.friendsPages.cache!.stats().hits, 'answered from the cache').toBe(hits + 1);
    return res.json<Friend[]>();
  }, waitOptions);
}

const feedTripIds = async (userId: string) => {
  const res = await h.app.inject({ url: '/api/feed', headers: as(userId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: { trip: { _id: string } }[] }>().items.map((i) => i.trip._id);
};

describe('a private trip in social', () => {
  it('created private: never in a friend’s list, newFriend, feed or destination read', async () => {
    const [ann, bob, cat] = await Promise.all([
      h.register('Ann'),
      h.register('Bob'),
      h.register('Cat'),
    ]);
    await h.befriend(ann, bob);
    const hidden = await h.createTrip(bob, [ROME], { name: 'Hidden', visibility: 'private' });
    const shown = await h.createTrip(bob, [ROME], { name: 'Shown' });
    const hiddenId = (hidden.payload as { tripId: string }).tripId;
    const shownId = (shown.payload as { tripId: string }).tripId;
    await applied(hiddenId, 1, 'private');
    await applied(shownId, 1, 'friends');

    expect(tripIdsOf(await h.friends(ann), bob)).toEqual([shownId]);
    expect(await feedTripIds(ann)).toEqual([shownId]);
    const hiddenDestination = (hidden.payload as { destinations: { id: string }[] })
      .destinations[0]!.id;
    const shownDestination = (shown.payload as { destinations: { id: string }[] }).destinations[0]!
      .id;
    const res = await destination(ann, bob, hiddenDestination);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    // the same answer as an id nobody has
    expect((await destination(ann, bob, 'no-such-destination')).json()).toEqual(notFound);
    expect((await destination(ann, bob, shownDestination)).statusCode).toBe(200);

    // a new friend's trips as accept answers them: the private one left out
    expect((await h.addFriend(bob, cat)).statusCode).toBe(200);
    const accepted = await h.accept(cat, bob);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const newFriend = accepted.json<{ newFriend: Friend }>().newFriend;
    expect(newFriend.id).toBe(bob);
    expect(newFriend.trips.map((t) => t._id)).toEqual([shownId]);
    expect(tripIdsOf(await h.friends(cat), bob)).toEqual([shownId]);
  });

  it('friends -> private leaves (cached page too) -> friends comes back; destination 404 -> 200', async () => {
    const [ann, bob] = await Promise.all([h.register('Ann'), h.register('Bob')]);
    await h.befriend(ann, bob);
    const created = await h.createTrip(bob, [ROME], { name: 'Spring trip' });
    const { tripId, destinations } = created.payload as {
      tripId: string;
      destinations: { id: string }[];
    };
    const dest = destinations[0]!.id;
    await vi.waitFor(
      async () => expect(tripIdsOf(await h.friends(ann), bob)).toEqual([tripId]),
      waitOptions,
    );
    expect((await destination(ann, bob, dest)).statusCode).toBe(200);
    // the page is in the friends cache: only the trips row's notification can drop it
    expect(tripIdsOf(await cachedFirstPage(ann), bob)).toEqual([tripId]);

    await setVisibility(created, 2, 'private');
    await vi.waitFor(
      async () => expect(tripIdsOf(await h.friends(ann), bob)).toEqual([]),
      waitOptions,
    );
    expect(await feedTripIds(ann)).toEqual([]);
    const gone = await destination(ann, bob, dest);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(notFound);
    // the row is kept (its owner may share it again): only the reads leave it out
    await applied(tripId, 2, 'private');
    // and it stays out of a page cached while private
    expect(tripIdsOf(await cachedFirstPage(ann), bob)).toEqual([]);

    // an update without `visibility` (events from before visibility existed) means friends: back again
    await setVisibility(created, 3, undefined);
    await vi.waitFor(
      async () => expect(tripIdsOf(await h.friends(ann), bob)).toEqual([tripId]),
      waitOptions,
    );
    expect((await destination(ann, bob, dest)).statusCode).toBe(200);
    expect(await feedTripIds(ann)).toEqual([tripId]);

    await setVisibility(created, 4, 'private');
    await vi.waitFor(
      async () => expect(tripIdsOf(await h.friends(ann), bob)).toEqual([]),
      waitOptions,
    );
    await setVisibility(created, 5, 'friends');
    await vi.waitFor(
      async () => expect(tripIdsOf(await h.friends(ann), bob)).toEqual([tripId]),
      waitOptions,
    );
  });
});
