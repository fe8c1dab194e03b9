import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SocialMessages, Topics } from '@wayfarer/contracts';
import { as, startSocial, waitOptions, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startSocial();
});

afterAll(async () => {
  await h?.close();
});

const destination = (userId: string, friendId: string, destinationId: string) =>
  h.app.inject({
    url: `/api/friends/${encodeURIComponent(friendId)}/destinations/${encodeURIComponent(destinationId)}`,
    headers: as(userId),
  });

const ROME = { latitude: 41.9028, longitude: 12.4964 };
const LIMA = { latitude: -12.0464, longitude: -77.0428 };

describe("a friend's trips in /api/friends", () => {
  it('appear when created and leave when deleted, through events alone; replays change nothing', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await h.befriend(ann, bob);

    const created = await h.createTrip(
      bob,
      [
        {
          name: 'Rome',
          ...ROME,
          photos: ['/api/photos/t/p1', '/api/photos/t/p2'],
          storyPreview: 'We walked...',
        },
        LIMA,
      ],
      { name: 'Two cities' },
    );
    const payload = created.payload as {
      tripId: string;
      destinations: { id: string }[];
    };
    const friend = await vi.waitFor(async () => {
      const [f] = await h.friends(ann);
      expect(f?.trips).toHaveLength(1);
      return f!;
    }, waitOptions);
    expect(friend).toEqual({
      id: bob,
      name: 'Bob',
      picture: `/api/avatars/${bob}/a.webp`,
      trips: [
        {
          _id: payload.tripId,
          name: 'Two cities',
          startDate: '2026-05-01',
          endDate: '2026-05-09',
          destinations: [
            {
              _id: payload.destinations[0]!.id,
              name: 'Rome',
              ...ROME,
              startDate: '2026-05-01',
              endDate: '2026-05-03',
              // the list names only the first photo (the pin's thumbnail), and no story
              photos: ['/api/photos/t/p1'],
            },
            expect.objectContaining({ _id: payload.destinations[1]!.id, ...LIMA, photos: [] }),
          ],
        },
      ],
    });

    // the info window reads every photo of one destination when its pin opens
    const rome = await destination(ann, bob, payload.destinations[0]!.id);
    expect(rome.statusCode).toBe(200);
    expect(rome.json()).toEqual({
      _id: payload.destinations[0]!.id,
      name: 'Rome',
      ...ROME,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: ['/api/photos/t/p1', '/api/photos/t/p2'],
      story: 'We walked...',
    });
    // not one of bob's destinations, or asked by bob of ann (no such destination): 404
    expect((await destination(ann, bob, 'nope')).json()).toEqual({
      error: 'not_found',
      message: SocialMessages.destinationNotFound,
    });
    expect((await destination(bob, ann, payload.destinations[0]!.id)).statusCode).toBe(404);

    // a second, newer trip comes first
    const later = await h.createTrip(bob, [LIMA], { name: 'Later' });
    await vi.waitFor(async () => {
      const [f] = await h.friends(ann);
      expect(f?.trips.map((t) => t.name)).toEqual(['Later', 'Two cities']);
    }, waitOptions);

    const deleted = await h.deleteTrip(bob, payload.tripId);
    await vi.waitFor(async () => {
      const [f] = await h.friends(ann);
      expect(f?.trips.map((t) => t.name)).toEqual(['Later']);
    }, waitOptions);
    // a deleted trip's destination is gone too
    expect((await destination(ann, bob, payload.destinations[0]!.id)).statusCode).toBe(404);

    // replays of every event (and trip.created after its deletion) change nothing; a marker
    // trip on the same partition as the replays is applied after them
    await h.publishEnvelope(Topics.tripsTrip, created);
    await h.publishEnvelope(Topics.tripsTrip, later);
    await h.publishEnvelope(Topics.tripsTrip, deleted);
    const { rows } = await h.pool.query<{ processed: number }>(
      'SELECT count(*)::int AS processed FROM processed_events',
    );
    const before = rows[0]!.processed;
    const marker = await h.createTrip(bob, [ROME], {
      tripId: payload.tripId + '-marker',
      name: 'Marker',
    });
    expect(marker.aggregateId).not.toBe(created.aggregateId);
    await vi.waitFor(async () => {
      const [f] = await h.friends(ann);
      expect(f?.trips.map((t) => t.name)).toEqual(['Marker', 'Later']);
    }, waitOptions);
    // the replays were skipped by the processed-event marker: only the marker trip is new
    await vi.waitFor(async () => {
      const after = await h.pool.query<{ processed: number }>(
        'SELECT count(*)::int AS processed FROM processed_events',
      );
      expect(after.rows[0]!.processed).toBe(before + 1);
    }, waitOptions);

    // bob sees ann without trips; a deleted trip is gone for bob's friends, not for bob's data
    expect((await h.friends(bob))[0]).toMatchObject({ id: ann, trips: [] });
  });

  it("a stranger's trips never appear, and a former friend's leave with the friendship", async () => {
    const cat = await h.register('Cat');
    const dan = await h.register('Dan');
    const stranger = await h.register('Stranger');
    await h.befriend(cat, dan);
    await h.createTrip(stranger, [ROME], { name: "Stranger's trip" });
    await h.createTrip(dan, [LIMA], { name: "Dan's trip" });
    await vi.waitFor(async () => {
      const [f] = await h.friends(cat);
      expect(f?.trips.map((t) => t.name)).toEqual(["Dan's trip"]);
    }, waitOptions);
    // the stranger's trip was applied (same consumer, read model holds it) but is not cat's
    const { rows: strangers } = await h.pool.query<{ doc: { destinations: { _id: string }[] } }>(
      'SELECT doc FROM trips WHERE owner_id = $1',
      [stranger],
    );
    expect(strangers).toHaveLength(1);
    expect((await h.friends(cat)).map((f) => f.id)).toEqual([dan]);
    // nor can its destination be read, not even with the stranger's id in the path
    const strangersDestination = strangers[0]!.doc.destinations[0]!._id;
    expect((await destination(cat, stranger, strangersDestination)).statusCode).toBe(404);
    const dansDestination = (await h.friends(cat))[0]!.trips[0]!.destinations[0]!._id;
    expect((await destination(cat, dan, dansDestination)).statusCode).toBe(200);
    // no identity proof: 401
    const raw = await h.rawApp.inject({
      url: `/api/friends/${dan}/destinations/${dansDestination}`,
      headers: as(cat),
    });
    expect(raw.statusCode).toBe(401);

    expect((await h.unfriend(dan, cat)).statusCode).toBe(200);
    expect(await h.friends(cat)).toEqual([]);
    expect((await destination(cat, dan, dansDestination)).statusCode).toBe(404);
    // a new request brings back the friend, trips and all (they were never dropped)
    await h.befriend(cat, dan);
    expect((await h.friends(cat))[0]?.trips.map((t) => t.name)).toEqual(["Dan's trip"]);
  });
});
