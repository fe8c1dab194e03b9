import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  friendshipId,
  FriendshipCreated,
  FriendshipRemoved,
  makeEvent,
  Topics,
  type Trip,
} from '@wayfarer/contracts';
import { createProducer } from '@wayfarer/service-kit';
import { testKafka } from '@wayfarer/test-kit';
import { png } from '../fixtures';
import { as, createSimpleTrip, newUserId, startTrips, type Harness } from './harness';

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

async function publish(event: ReturnType<typeof makeEvent>) {
  await producer.send({
    topic: Topics.socialFriendship,
    messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
  });
}

describe('photos of friends (projection of social.friendship.v1)', () => {
  const owner = newUserId();
  const friend = newUserId();
  let trip: Trip;
  let url: string;

  beforeAll(async () => {
    trip = await createSimpleTrip(h, owner, await png());
    url = trip.destinations[0]!.photos[0]!;
  });

  it('before any friendship: the other user gets 404', async () => {
    expect((await h.app.inject({ url, headers: as(friend) })).statusCode).toBe(404);
  });

  it('after friendship.created is consumed: the friend gets the photo', async () => {
    await publish(
      makeEvent(FriendshipCreated, friendshipId(owner, friend), { userIds: [friend, owner] }),
    );
    await expect
      .poll(() => h.friendships.areFriends(owner, friend), {
        message: 'the friendship to be projected',
        timeout: 45_000,
      })
      .toBe(true);
    const res = await h.app.inject({ url, headers: as(friend) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    // friendship is not ownership: the trip itself stays the owner's (404, not 403)
    const other = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(friend) });
    expect(other.statusCode).toBe(404);
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(friend),
    });
    expect(del.statusCode).toBe(404);
    // and a stranger still sees nothing
    expect((await h.app.inject({ url, headers: as(newUserId()) })).statusCode).toBe(404);
  });

  it('a friendship event with a broken payload is skipped, not retried forever', async () => {
    const other = newUserId();
    const id = friendshipId(owner, other);
    const broken = { ...makeEvent(FriendshipCreated, id, { userIds: [owner, other] }) };
    // same key as the good event after it: same partition, so it is read first
    await publish({ ...broken, payload: { userIds: 'not a pair' } } as never);
    await publish(makeEvent(FriendshipCreated, id, { userIds: [owner, other] }));
    await expect
      .poll(() => h.friendships.areFriends(owner, other), {
        message: 'the good event after the broken one to be projected',
        timeout: 45_000,
      })
      .toBe(true);
  });

  it('after friendship.removed: 404 again', async () => {
    await publish(
      makeEvent(FriendshipRemoved, friendshipId(owner, friend), { userIds: [owner, friend] }),
    );
    await expect
      .poll(() => h.friendships.areFriends(owner, friend), {
        message: 'the friendship to be removed',
        timeout: 45_000,
      })
      .toBe(false);
    expect((await h.app.inject({ url, headers: as(friend) })).statusCode).toBe(404);
    expect((await h.app.inject({ url, headers: as(owner) })).statusCode).toBe(200);
  });
});
