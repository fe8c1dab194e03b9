import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  friendshipId,
  FriendshipCreated,
  makeEvent,
  Topics,
  tripETag,
  type Trip,
  type TripSummary,
} from '@wayfarer/contracts';
import { createProducer } from '@wayfarer/service-kit';
import { testKafka, waitForEvents } from '@wayfarer/test-kit';
import { png } from '../fixtures';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

// per-trip visibility (friends | private) on the create form, the patch, every trip
// JSON and the events; a friend reads a trip's photos only while it is `friends`

let h: Harness;
let producer: Producer;
let image: Buffer;
beforeAll(async () => {
  h = await startTrips();
  producer = createProducer(testKafka());
  await producer.connect();
  image = await png(64, 48);
});
afterAll(async () => {
  await producer?.disconnect();
  await h?.close();
});

type Envelope = {
  type: string;
  payload: { tripId: string; visibility?: string; version?: number };
};

async function create(owner: string, visibility?: string) {
  const fields = tripFields({ name: 'Hidden' }, [
    { name: 'Oslo', latitude: '59.91', longitude: '10.75' },
  ]);
  if (visibility !== undefined) fields.push(['visibility', visibility]);
  return postTrip(h.app, owner, fields, [
    { field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' },
  ]);
}

const get = (user: string, url: string) => h.app.inject({ url, headers: as(user) });

const patchVisibility = (owner: string, trip: Pick<Trip, '_id'>, visibility: unknown, v: number) =>
  h.app.inject({
    method: 'PATCH',
    url: `/api/trips/${trip._id}`,
    headers: { ...as(owner), 'if-match': tripETag(v) },
    payload: { visibility },
  });

async function befriend(a: string, b: string) {
  const event = makeEvent(FriendshipCreated, friendshipId(a, b), { userIds: [a, b] });
  await producer.send({
    topic: Topics.socialFriendship,
    messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
  });
  await expect.poll(() => h.friendships.areFriends(a, b), { timeout: 45_000 }).toBe(true);
}

describe('visibility on the trip', () => {
  it('POST: friends by default, private when sent; every trip JSON carries it; trip.created too', async () => {
    const owner = newUserId();
    const plain = await create(owner);
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json<Trip>().visibility).toBe('friends');
    const secret = await create(owner, 'private');
    expect(secret.statusCode, secret.body).toBe(201);
    const trip = secret.json<Trip>();
    expect(trip.visibility).toBe('private');

    expect((await get(owner, `/api/trips/${trip._id}`)).json<Trip>().visibility).toBe('private');
    const list = (await get(owner, '/api/mytrips')).json<TripSummary[]>();
    expect(list.map((t) => [t._id, t.visibility])).toEqual([
      [trip._id, 'private'],
      [plain.json<Trip>()._id, 'friends'],
    ]);

    const created = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) =>
        e.type === 'trip.created' && [trip._id, plain.json<Trip>()._id].includes(e.payload.tripId),
      { count: 2 },
    );
    const byId = new Map(created.map((e) => [e.payload.tripId, e.payload.visibility]));
    expect(byId.get(trip._id)).toBe('private');
    expect(byId.get(plain.json<Trip>()._id)).toBe('friends');
  });

  it('POST with a bad visibility: 400 naming the field, nothing created', async () => {
    const owner = newUserId();
    for (const bad of ['public', '']) {
      const res = await create(owner, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^visibility: /);
    }
    expect((await get(owner, '/api/mytrips')).json()).toEqual([]);
  });

  it('PATCH: a change of visibility bumps the version, answers it, lists it and sends one trip.updated with it', async () => {
    const owner = newUserId();
    const trip = (await create(owner)).json<Trip>();
    // the list kept by this instance before the change
    expect((await get(owner, '/api/mytrips')).json<TripSummary[]>()[0]!.visibility).toBe('friends');

    const res = await patchVisibility(owner, trip, 'private', 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe(tripETag(2));
    expect(res.json<Trip>().visibility).toBe('private');
    expect((await get(owner, `/api/trips/${trip._id}`)).json<Trip>().visibility).toBe('private');
    expect((await get(owner, '/api/mytrips')).json<TripSummary[]>()[0]!.visibility).toBe('private');

    // the same visibility again: no change, no new version
    const same = await patchVisibility(owner, trip, 'private', 2);
    expect(same.statusCode).toBe(200);
    expect(same.headers.etag).toBe(tripETag(2));

    // a bad value: 400, nothing changes
    const bad = await patchVisibility(owner, trip, 'public', 2);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/visibility/);
    const after = await get(owner, `/api/trips/${trip._id}`);
    expect(after.headers.etag).toBe(tripETag(2));
    expect(after.json<Trip>().visibility).toBe('private');

    // someone else cannot change it
    const stranger = await patchVisibility(newUserId(), trip, 'friends', 2);
    expect(stranger.statusCode).toBe(404);

    const back = await patchVisibility(owner, trip, 'friends', 2);
    expect(back.headers.etag).toBe(tripETag(3));
    const updates = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.updated' && e.payload.tripId === trip._id,
      { count: 2 },
    );
    expect(updates.map((e) => [e.payload.version, e.payload.visibility])).toEqual([
      [2, 'private'],
      [3, 'friends'],
    ]);
  });
});

describe('who reads the photos (domain/access.ts)', () => {
  it("a friend: 200 on a friends trip's photo, 404 while it is private, 200 again after; a stranger never", async () => {
    const owner = newUserId();
    const friend = newUserId();
    const shown = (await create(owner)).json<Trip>();
    const hidden = (await create(owner, 'private')).json<Trip>();
    await h.variants.idle();
    await befriend(owner, friend);
    const photoOf = async (trip: Trip) =>
      (await get(owner, `/api/trips/${trip._id}`)).json<Trip>().destinations[0]!.photos[0]!;
    const shownUrl = await photoOf(shown);
    const hiddenUrl = await photoOf(hidden);

    expect((await get(friend, shownUrl)).statusCode).toBe(200);
    const refused = await get(friend, hiddenUrl);
    expect(refused.statusCode).toBe(404);
    // the same answer as a photo that does not exist
    const unknown = await get(friend, `${hiddenUrl.slice(0, -4)}0000`);
    expect(refused.json()).toEqual(unknown.json());
    expect((await get(owner, hiddenUrl)).statusCode).toBe(200);
    expect((await get(newUserId(), shownUrl)).statusCode).toBe(404);

    expect((await patchVisibility(owner, shown, 'private', 1)).statusCode).toBe(200);
    expect((await get(friend, shownUrl)).statusCode).toBe(404);
    expect((await patchVisibility(owner, shown, 'friends', 2)).statusCode).toBe(200);
    expect((await get(friend, shownUrl)).statusCode).toBe(200);
    // the trip itself stays the owner's
    expect((await get(friend, `/api/trips/${shown._id}`)).statusCode).toBe(404);
  });
});
