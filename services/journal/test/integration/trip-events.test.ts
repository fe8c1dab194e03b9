import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEvent,
  Topics,
  TripCreated,
  TripUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { applyTripEvent } from '../../src/usecases/apply-trip-event';
import { hidden, readable, startJournal, destinationSummaries, type Harness } from './harness';

let h: Harness;
let owner: string;
let friend: string;

beforeAll(async () => {
  h = await startJournal();
  owner = h.id('owner');
  friend = h.id('friend');
  await h.befriend(owner, friend);
});

afterAll(async () => {
  await h?.close();
});

describe('trip.deleted', () => {
  it("removes the trip's destinations and their journal entries", async () => {
    const tripId = h.id('tripdel');
    const [a, b] = [h.id('dela'), h.id('delb')];
    const kept = h.id('kept');
    await h.createTrip(owner, [a, b], tripId);
    await h.createTrip(owner, [kept]);
    await readable(h, owner, a);
    await readable(h, owner, kept);
    for (const id of [a, b, kept]) {
      expect((await h.post(owner, { destinationId: id, content: `story ${id}` })).statusCode).toBe(
        200,
      );
    }
    await readable(h, friend, b);

    await h.deleteTrip(owner, [a, b], tripId);
    await hidden(h, owner, a);
    for (const [user, id] of [
      [owner, a],
      [owner, b],
      [friend, a],
      [friend, b],
    ] as const) {
      expect((await h.get(user, id)).statusCode, `${user} ${id}`).toBe(404);
    }
    // reads are refused once the tombstones land; the entries go right after them
    await expect
      .poll(() => h.stores.entries.collection.countDocuments({ _id: { $in: [a, b] } }), {
        message: 'the entries to be deleted',
        timeout: 20_000,
      })
      .toBe(0);
    // writing to a deleted destination does not bring it back
    expect((await h.post(owner, { destinationId: a, content: 'again' })).statusCode).toBe(404);
    expect(await h.stores.entries.collection.findOne({ _id: a })).toBeNull();
    // the other trip is untouched
    expect((await h.get(owner, kept)).json()).toMatchObject({ content: `story ${kept}` });
  });
});

describe('trip.created', () => {
  it('changes nothing when the same event is delivered again', async () => {
    const tripId = h.id('tripdup');
    const dest = h.id('dup');
    const first = await h.createTrip(owner, [dest], tripId);
    await readable(h, owner, dest);
    expect((await h.post(owner, { destinationId: dest, content: 'kept text' })).statusCode).toBe(
      200,
    );
    const before = await h.stores.destinations.collection.findOne({ _id: dest });

    // the same envelope again, then a marker event on the same partition (same key):
    // once the marker is applied, the redelivery was handled
    await h.publishEnvelope(Topics.tripsTrip, first);
    const marker = h.id('marker');
    await h.publishEnvelope(
      Topics.tripsTrip,
      makeEvent(TripCreated, h.id('tripmarker'), {
        tripId: h.id('tripmarker'),
        ownerId: owner,
        name: 'marker',
        startDate: '2026-01-01',
        endDate: '2026-01-01',
        destinations: [
          {
            id: marker,
            name: 'm',
            latitude: 0,
            longitude: 0,
            startDate: '2026-01-01',
            endDate: '2026-01-01',
            photos: [],
            storyPreview: '',
          },
        ],
      }) as EventEnvelope,
      tripId,
    );
    await readable(h, owner, marker);

    expect(await h.stores.destinations.collection.findOne({ _id: dest })).toEqual(before);
    expect((await h.get(owner, dest)).json()).toMatchObject({ content: 'kept text' });
    expect(await h.db.collection('processed_events').countDocuments({ eventId: first.id })).toBe(1);
  });

  it('skips an event whose payload breaks the schema and keeps consuming', async () => {
    const tripId = h.id('tripbad');
    await h.publishEnvelope(
      Topics.tripsTrip,
      {
        id: crypto.randomUUID(),
        type: 'trip.created',
        version: 1,
        occurredAt: new Date().toISOString(),
        aggregateId: tripId,
        payload: { tripId, destinations: 'not a list' },
      },
      tripId,
    );
    const after = h.id('afterbad');
    await h.createTrip(owner, [after], tripId);
    await readable(h, owner, after);
  });
});

describe('projection effects on their own (no processed-event marker)', () => {
  it('are idempotent, and a late trip.created cannot revive a deleted destination', async () => {
    const tripId = h.id('direct');
    const dest = h.id('direct');
    const created = makeEvent(TripCreated, tripId, {
      tripId,
      ownerId: owner,
      name: 'd',
      startDate: '2026-01-01',
      endDate: '2026-01-01',
      destinations: destinationSummaries([dest]),
    }) as EventEnvelope;
    const deleted = {
      ...created,
      id: crypto.randomUUID(),
      type: 'trip.deleted',
      occurredAt: new Date(Date.now() + 1000).toISOString(),
      payload: { tripId, ownerId: owner, destinations: destinationSummaries([dest]) },
    };
    await applyTripEvent(h.stores, created);
    await applyTripEvent(h.stores, created);
    expect(await h.stores.destinations.ownerOf(dest)).toBe(owner);
    expect(await h.stores.destinations.collection.countDocuments({ _id: dest })).toBe(1);

    await applyTripEvent(h.stores, deleted);
    await applyTripEvent(h.stores, deleted);
    await applyTripEvent(h.stores, created);
    expect(await h.stores.destinations.ownerOf(dest)).toBeNull();
  });

  it('never hands a destination to another owner', async () => {
    const dest = h.id('steal');
    const make = (ownerId: string, tripId: string) =>
      makeEvent(TripCreated, tripId, {
        tripId,
        ownerId,
        name: 'x',
        startDate: '2026-01-01',
        endDate: '2026-01-01',
        destinations: destinationSummaries([dest]),
      }) as EventEnvelope;
    await applyTripEvent(h.stores, make(owner, h.id('t1')));
    await applyTripEvent(h.stores, make(friend, h.id('t2')));
    expect(await h.stores.destinations.ownerOf(dest)).toBe(owner);
  });

  it('a save racing with trip.deleted leaves no entry behind', async () => {
    const tripId = h.id('race');
    const dest = h.id('race');
    const created = makeEvent(TripCreated, tripId, {
      tripId,
      ownerId: owner,
      name: 'r',
      startDate: '2026-01-01',
      endDate: '2026-01-01',
      destinations: destinationSummaries([dest]),
    }) as EventEnvelope;
    await applyTripEvent(h.stores, created);
    await applyTripEvent(h.stores, {
      ...created,
      id: crypto.randomUUID(),
      type: 'trip.deleted',
      payload: { tripId, ownerId: owner, destinations: destinationSummaries([dest]) },
    });
    // the access check ran just before the deletion landed: it still saw the owner
    const spy = vi
      .spyOn(h.stores.destinations, 'accessOf')
      .mockResolvedValueOnce({ ownerId: owner, visibility: 'friends' });
    try {
      const res = await h.post(owner, { destinationId: dest, content: 'too late' });
      expect(res.statusCode).toBe(404);
    } finally {
      spy.mockRestore();
    }
    expect(await h.stores.entries.collection.findOne({ _id: dest })).toBeNull();
  });
});

describe('trip.updated (a trip changed after it was saved)', () => {
  const updated = (
    tripId: string,
    version: number,
    ids: string[],
    change: { added?: string[]; removed?: string[] },
  ) =>
    makeEvent(TripUpdated, tripId, {
      tripId,
      ownerId: owner,
      version,
      name: 'changed',
      startDate: '2026-01-01',
      endDate: '2026-01-01',
      destinations: destinationSummaries(ids),
      addedDestinationIds: change.added ?? [],
      movedDestinationIds: [],
      removedDestinationIds: change.removed ?? [],
    }) as EventEnvelope;

  it("takes a removed destination's journal away and makes an added one's writable; a replay changes nothing", async () => {
    const tripId = h.id('tripupd');
    const [kept, gone, added] = [h.id('kept'), h.id('gone'), h.id('added')];
    await h.createTrip(owner, [kept, gone], tripId);
    await readable(h, owner, gone);
    for (const id of [kept, gone]) {
      expect((await h.post(owner, { destinationId: id, content: `story ${id}` })).statusCode).toBe(
        200,
      );
    }

    const change = updated(tripId, 2, [added, kept], { added: [added], removed: [gone] });
    await h.publishEnvelope(Topics.tripsTrip, change);
    await hidden(h, owner, gone);
    await hidden(h, friend, gone);
    await expect
      .poll(() => h.stores.entries.collection.countDocuments({ _id: gone }), { timeout: 20_000 })
      .toBe(0);
    expect((await readable(h, friend, added)).json()).toMatchObject({ content: '' });
    expect((await h.post(owner, { destinationId: added, content: 'new stop' })).statusCode).toBe(
      200,
    );
    expect((await h.get(owner, kept)).json()).toMatchObject({ content: `story ${kept}` });
    expect((await h.post(owner, { destinationId: gone, content: 'again' })).statusCode).toBe(404);

    // the same envelope again, then a marker on the trip's partition (a destination added by
    // the next change): once it is readable, the replay was handled
    const ids = { _id: { $in: [kept, gone, added] } };
    // (the marker's newer version is written on the live ones: that is not the replay's doing)
    const held = () =>
      h.stores.destinations.collection
        .find(ids, { projection: { version: 0 } })
        .sort({ _id: 1 })
        .toArray();
    const before = await held();
    await h.publishEnvelope(Topics.tripsTrip, change);
    const marker = h.id('updmarker');
    await h.publishEnvelope(
      Topics.tripsTrip,
      updated(tripId, 3, [added, kept, marker], { added: [marker] }),
    );
    await readable(h, owner, marker);
    expect(await held()).toEqual(before);
    expect((await h.get(owner, added)).json()).toMatchObject({ content: 'new stop' });
  });

  it('on their own: idempotent, and an older update arriving late neither revives nor removes', async () => {
    const tripId = h.id('tripupdlate');
    const [a, b] = [h.id('la'), h.id('lb')];
    const v2 = updated(tripId, 2, [a, b], { added: [b] });
    const v3 = updated(tripId, 3, [a], { removed: [b] });
    await applyTripEvent(h.stores, v2);
    await applyTripEvent(h.stores, v3);
    await applyTripEvent(h.stores, v3);
    await applyTripEvent(h.stores, v2); // late
    expect(await h.stores.destinations.ownerOf(a)).toBe(owner);
    expect(await h.stores.destinations.ownerOf(b)).toBeNull();
  });
});
