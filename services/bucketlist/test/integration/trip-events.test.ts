import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, TripUpdated, VISIT_RADIUS_KM, type EventEnvelope } from '@wayfarer/contracts';
import {
  newUserId,
  outboxDrained,
  publishedEvents,
  startBucketList,
  visited,
  type Harness,
} from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startBucketList();
});

afterAll(async () => {
  await h?.close();
});

const ROME = { latitude: 41.9028, longitude: 12.4964 };
/** Ostia Antica: about 22 km from central Rome, within VISIT_RADIUS_KM. */
const OSTIA = { latitude: 41.7556, longitude: 12.2923 };
/** Naples: about 190 km from Rome. */
const NAPLES = { latitude: 40.8518, longitude: 14.2681 };
const LIMA = { latitude: -12.0464, longitude: -77.0428 };
/** Civitavecchia: about 62 km from Rome. */
const CIVITAVECCHIA = { latitude: 42.0924, longitude: 11.7954 };

describe('a trip near a bucket-list place', () => {
  it('marks it visited by that trip, once; a replay of the event changes nothing', async () => {
    const ann = newUserId();
    const rome = await h.addPlace(ann, 'Rome, Italy', ROME);
    const naples = await h.addPlace(ann, 'Naples, Italy', NAPLES);

    const trip = await h.createTrip(ann, [CIVITAVECCHIA, OSTIA], { name: 'Lazio by the sea' });
    const tripId = (trip.payload as { tripId: string }).tripId;
    const visitedRome = await visited(h, ann, rome._id);
    expect(visitedRome).toMatchObject({
      isVisited: true,
      visitedAt: trip.occurredAt,
      visitedByTrip: { tripId, name: 'Lazio by the sea' },
    });
    // Naples is 190 km from both destinations
    expect((await h.list(ann)).find((i) => i._id === naples._id)?.isVisited).toBe(false);

    // a new place near Rome after the trip, then the same event delivered again: had it been
    // applied a second time, it would tick the new place off
    const colosseum = await h.addPlace(ann, 'Colosseum', { latitude: 41.8902, longitude: 12.4922 });
    await h.publishEnvelope(trip);
    // a marker on the same partition (same key), applied after the replay
    const bob = newUserId();
    const bobsPlace = await h.addPlace(bob, 'Rome', ROME);
    await h.createTrip(bob, [ROME], { key: trip.aggregateId });
    await visited(h, bob, bobsPlace._id);
    const after = await h.list(ann);
    expect(after.find((i) => i._id === colosseum._id)?.isVisited).toBe(false);
    expect(after.find((i) => i._id === rome._id)).toEqual(visitedRome);

    await outboxDrained(h);
    const visits = (await publishedEvents([ann])).filter(
      (e) => e.type === 'bucketlist.item.visited',
    );
    expect(visits.map((e) => e.payload)).toEqual([
      {
        itemId: rome._id,
        ownerId: ann,
        visitedAt: trip.occurredAt,
        visitedByTrip: { tripId, name: 'Lazio by the sea' },
      },
    ]);
  });

  it(`leaves places further than ${VISIT_RADIUS_KM} km and other users' places alone`, async () => {
    const [ann, bob] = [newUserId(), newUserId()];
    const annsRome = await h.addPlace(ann, 'Rome', ROME);
    const bobsRome = await h.addPlace(bob, 'Rome', ROME);
    // ann's trip goes to Civitavecchia (62 km from Rome); bob's to Naples
    const annsTrip = await h.createTrip(ann, [CIVITAVECCHIA]);
    const bobsTrip = await h.createTrip(bob, [NAPLES]);
    // a marker after each, on its partition: once applied, the trip before it was too
    const annsMarker = await h.addPlace(ann, 'Naples', NAPLES);
    await h.createTrip(ann, [NAPLES], { key: annsTrip.aggregateId });
    const bobsMarker = await h.addPlace(bob, 'Lima', LIMA);
    await h.createTrip(bob, [LIMA], { key: bobsTrip.aggregateId });
    await visited(h, ann, annsMarker._id);
    await visited(h, bob, bobsMarker._id);
    expect((await h.list(ann)).find((i) => i._id === annsRome._id)?.isVisited).toBe(false);
    expect((await h.list(bob)).find((i) => i._id === bobsRome._id)?.isVisited).toBe(false);
  });

  it('stays visited when the trip is deleted', async () => {
    const ann = newUserId();
    const rome = await h.addPlace(ann, 'Rome', ROME);
    const trip = await h.createTrip(ann, [OSTIA]);
    const tripId = (trip.payload as { tripId: string }).tripId;
    const before = await visited(h, ann, rome._id);

    await h.deleteTrip(ann, tripId, [OSTIA]);
    // a marker after the deletion, on the same partition
    const naples = await h.addPlace(ann, 'Naples', NAPLES);
    await h.createTrip(ann, [NAPLES], { key: tripId });
    await visited(h, ann, naples._id);
    expect((await h.list(ann)).find((i) => i._id === rome._id)).toEqual(before);
  });

  it('does not change a place ticked off by hand', async () => {
    const ann = newUserId();
    const rome = await h.addPlace(ann, 'Rome', ROME);
    const ticked = await h.visit(ann, rome._id);
    expect(ticked.statusCode).toBe(200);
    const naples = await h.addPlace(ann, 'Naples', NAPLES);
    await h.createTrip(ann, [OSTIA, NAPLES]);
    await visited(h, ann, naples._id);
    const item = (await h.list(ann)).find((i) => i._id === rome._id);
    expect(item?.visitedByTrip).toBeUndefined();
    expect(item?.visitedAt).toBe(ticked.json<{ data: { visitedAt: string } }>().data.visitedAt);
  });
});

describe('a trip changed after it was saved (trip.updated)', () => {
  type Stop = { id: string; latitude: number; longitude: number };
  /** `trip.updated` as trips publishes it: the trip after the change, what the change did. */
  const update = async (
    created: EventEnvelope,
    version: number,
    name: string,
    destinations: Stop[],
    change: { added?: string[]; moved?: string[] } = {},
  ) => {
    const { tripId, ownerId } = created.payload as { tripId: string; ownerId: string };
    const event = makeEvent(TripUpdated, tripId, {
      tripId,
      ownerId,
      version,
      name,
      startDate: '2026-05-01',
      endDate: '2026-05-09',
      destinations: destinations.map((d) => ({
        ...d,
        name: d.id,
        startDate: '2026-05-01',
        endDate: '2026-05-03',
        photos: [],
        storyPreview: '',
      })),
      addedDestinationIds: change.added ?? [],
      movedDestinationIds: change.moved ?? [],
      removedDestinationIds: [],
    }) as EventEnvelope;
    await h.publishEnvelope(event);
    return event;
  };
  /** A marker on the trip's partition, applied after what was published before it. */
  const marker = async (after: EventEnvelope) => {
    const bob = newUserId();
    const place = await h.addPlace(bob, 'Lima', LIMA);
    await h.createTrip(bob, [LIMA], { key: after.aggregateId });
    await visited(h, bob, place._id);
  };
  const isVisited = async (userId: string, id: string) =>
    (await h.list(userId)).find((i) => i._id === id)?.isVisited;

  it('ticks a place near a destination added or moved; kept destinations and replays tick nothing', async () => {
    const ann = newUserId();
    const rome = await h.addPlace(ann, 'Rome', ROME);
    const naples = await h.addPlace(ann, 'Naples', NAPLES);
    const created = await h.createTrip(ann, [LIMA], { name: 'Far away' });
    const lima = (created.payload as { destinations: Stop[] }).destinations[0]!;

    // Ostia added: Rome is ticked, by this trip under its new name
    const v2 = await update(created, 2, 'Now Lazio', [lima, { id: 'ostia', ...OSTIA }], {
      added: ['ostia'],
    });
    expect(await visited(h, ann, rome._id)).toMatchObject({
      visitedAt: v2.occurredAt,
      visitedByTrip: { tripId: created.aggregateId, name: 'Now Lazio' },
    });
    expect(await isVisited(ann, naples._id)).toBe(false);

    // a place added near Ostia after that; a rename keeping both destinations, and a replay of
    // the change that added Ostia: neither ticks it
    const ostiaPort = await h.addPlace(ann, 'Ostia', OSTIA);
    const v3 = await update(created, 3, 'Renamed', [lima, { id: 'ostia', ...OSTIA }]);
    await h.publishEnvelope(v2);
    await marker(v3);
    expect(await isVisited(ann, ostiaPort._id)).toBe(false);

    // Lima moved to Naples: Naples is ticked
    await update(
      created,
      4,
      'Renamed',
      [
        { ...lima, ...NAPLES },
        { id: 'ostia', ...OSTIA },
      ],
      {
        moved: [lima.id],
      },
    );
    await visited(h, ann, naples._id);
    expect(await isVisited(ann, ostiaPort._id)).toBe(false);
  });
});
