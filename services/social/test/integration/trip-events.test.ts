import { describe, expect, it, vi } from 'vitest';
import {
  makeEvent,
  SocialMessages,
  Topics,
  TripUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { applyTripEvent } from '../../src/events/consumers/trips';
import { as, waitOptions, type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

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

describe('trip.updated (a trip changed after it was saved)', () => {
  const stop = (id: string, name: string, at: { latitude: number; longitude: number }) => ({
    id,
    name,
    ...at,
    startDate: '2026-05-01',
    endDate: '2026-05-03',
    photos: [`/api/photos/t/${id}`],
    storyPreview: `About ${name}`,
  });
  /** Publishes `trip.updated` as trips does: the whole trip after the change, its version. */
  const update = async (
    ownerId: string,
    tripId: string,
    version: number,
    name: string,
    destinations: ReturnType<typeof stop>[],
    removed: string[] = [],
  ) => {
    const event = makeEvent(TripUpdated, tripId, {
      tripId,
      ownerId,
      version,
      name,
      startDate: '2026-05-01',
      endDate: '2026-05-09',
      destinations,
      addedDestinationIds: [],
      movedDestinationIds: [],
      removedDestinationIds: removed,
    }) as EventEnvelope;
    await h.publishEnvelope(Topics.tripsTrip, event);
    return event;
  };
  const tripsOf = async (userId: string) => (await h.friends(userId))[0]?.trips ?? [];

  it("replaces a friend's trip with its newer version; replays and older versions change nothing", async () => {
    const eve = await h.register('Eve');
    const fay = await h.register('Fay');
    await h.befriend(eve, fay);
    const created = await h.createTrip(fay, [ROME], { name: 'Before' });
    const { tripId, destinations } = created.payload as {
      tripId: string;
      destinations: { id: string }[];
    };
    const rome = destinations[0]!.id;
    await vi.waitFor(
      async () => expect((await tripsOf(eve)).map((t) => t.name)).toEqual(['Before']),
      waitOptions,
    );

    // v2: renamed, Rome kept, Lima added in front
    const v2 = await update(fay, tripId, 2, 'After', [
      stop('lima', 'Lima', LIMA),
      stop(rome, 'Rome', ROME),
    ]);
    await vi.waitFor(async () => expect((await tripsOf(eve))[0]?.name).toBe('After'), waitOptions);
    expect((await tripsOf(eve))[0]!.destinations.map((d) => [d._id, d.name, d.photos])).toEqual([
      ['lima', 'Lima', ['/api/photos/t/lima']],
      [rome, 'Rome', [`/api/photos/t/${rome}`]],
    ]);
    expect((await destination(eve, fay, 'lima')).json()).toMatchObject({ story: 'About Lima' });

    // v3 removes Rome; then v2 again under a new event id (an older update arriving late)
    await update(fay, tripId, 3, 'Third', [stop('lima', 'Lima', LIMA)], [rome]);
    await vi.waitFor(async () => expect((await tripsOf(eve))[0]?.name).toBe('Third'), waitOptions);
    const late = { ...v2, id: crypto.randomUUID() };
    await h.publishEnvelope(Topics.tripsTrip, late);
    await h.publishEnvelope(Topics.tripsTrip, v2); // and the very same envelope (a replay)
    // a marker on the trip's own partition: applied after the two above
    await update(fay, `${tripId}`, 4, 'Marker', [stop('lima', 'Lima', LIMA)]);
    await vi.waitFor(async () => expect((await tripsOf(eve))[0]?.name).toBe('Marker'), waitOptions);
    const { rows } = await h.pool.query<{ version: number; names: string[] }>(
      `SELECT version, (SELECT array_agg(d->>'name') FROM json_array_elements(doc->'destinations') d) AS names
         FROM trips WHERE id = $1`,
      [tripId],
    );
    expect(rows).toEqual([{ version: 4, names: ['Lima'] }]);
    expect((await destination(eve, fay, rome)).statusCode).toBe(404);

    // the effect alone, without the processed-event marker: an older version changes nothing
    const client = await h.pool.connect();
    try {
      await applyTripEvent(h.stores, client, late);
    } finally {
      client.release();
    }
    const held = await h.pool.query('SELECT doc->>$2 AS name, version FROM trips WHERE id = $1', [
      tripId,
      'name',
    ]);
    expect(held.rows).toEqual([{ name: 'Marker', version: 4 }]);

    // a deleted trip stays deleted whatever update comes after
    await h.deleteTrip(fay, tripId);
    await update(fay, tripId, 9, 'Revived?', [stop('lima', 'Lima', LIMA)]);
    const other = await h.createTrip(fay, [LIMA], { name: 'Other' });
    await vi.waitFor(
      async () => expect((await tripsOf(eve)).map((t) => t.name)).toEqual(['Other']),
      waitOptions,
    );
    expect(other.aggregateId).not.toBe(tripId);
  });
});
