import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  friendshipId,
  FriendshipCreated,
  makeEvent,
  Topics,
  UserDeleted,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { createProducer } from '@wayfarer/service-kit';
import { collectionsHolding, testKafka, waitForEvents } from '@wayfarer/test-kit';
import { png } from '../fixtures';
import { as, createSimpleTrip, newUserId, startTrips, type Harness } from './harness';

// auth's user.deleted makes trips erase the user's trips (each with its trip.deleted),
// photos, list version and friendships

let h: Harness;
let producer: Producer;
beforeAll(async () => {
  h = await startTrips();
  producer = createProducer(testKafka());
  await producer.connect();
});
afterAll(async () => {
  await producer?.disconnect();
  await h?.close();
});

async function publish(event: EventEnvelope) {
  await producer.send({
    topic: event.type.startsWith('user.') ? Topics.authUser : Topics.socialFriendship,
    messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
  });
}

/** Collections of trips' database with a document whose JSON contains `text`. */
const collectionsNaming = (text: string) => collectionsHolding(h.db, [text]);

describe('user.deleted', () => {
  it("erases the user's trips, photos and friendships, and announces each trip deleted", async () => {
    const gone = newUserId();
    const friend = newUserId();
    const image = await png();
    const first = await createSimpleTrip(h, gone, image, 'First');
    const second = await createSimpleTrip(h, gone, image, 'Second');
    const kept = await createSimpleTrip(h, friend, image, "Friend's");
    await publish(
      makeEvent(FriendshipCreated, friendshipId(gone, friend), { userIds: [gone, friend] }),
    );
    await vi.waitFor(async () => expect(await h.friendships.areFriends(gone, friend)).toBe(true), {
      timeout: 20_000,
    });
    expect(await h.photos.list(`${first._id}/`)).not.toEqual([]);
    expect(await collectionsNaming(gone)).toEqual(
      expect.arrayContaining(['trips', 'list_versions', 'friendships']),
    );

    await publish(makeEvent(UserDeleted, gone, { userId: gone }));
    const deleted = await waitForEvents<{ type: string; payload: { tripId: string } }>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.deleted' && [first._id, second._id].includes(e.payload.tripId),
      { count: 2 },
    );
    expect(new Set(deleted.map((e) => e.payload.tripId))).toEqual(new Set([first._id, second._id]));
    // once the relay has sent them, the soft-deleted documents go: nothing names the user
    await vi.waitFor(async () => expect(await collectionsNaming(gone)).toEqual([]), {
      timeout: 20_000,
      interval: 100,
    });
    expect(await h.photos.list(`${first._id}/`)).toEqual([]);
    expect(await h.photos.list(`${second._id}/`)).toEqual([]);
    // the friend keeps their trip and photos
    const mine = await h.app.inject({ url: '/api/mytrips', headers: as(friend) });
    expect(mine.json<{ _id: string }[]>().map((t) => t._id)).toEqual([kept._id]);
    expect(await h.photos.list(`${kept._id}/`)).not.toEqual([]);
  });
});
