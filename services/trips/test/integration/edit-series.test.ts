import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIP_PHOTOS_FIELD, tripETag, type Trip, type TripPatch } from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import { createService, type TripsService } from '../../src/service';
import { png } from '../fixtures';
import {
  as,
  multipart,
  newUserId,
  postTrip,
  startTrips,
  tripFields,
  type Harness,
} from './harness';

/**
 * A series of changes to one trip starts each change from the trip as the instance's last
 * change left it (`TripsStore.writtenHere`) instead of reading it again. What must hold: the
 * kept copy is the stored trip, and a kept copy out of date (another instance's change, a
 * display variant recorded, a delete) never writes over what it does not know.
 */
let h: Harness;
let second: TripsService;
let other: Harness['app'];
let image: Buffer;

beforeAll(async () => {
  h = await startTrips();
  second = await createService(h.env, { skipHistory: true });
  other = throughGateway(second.app);
  image = await png(64, 48);
});
afterAll(async () => {
  await second?.close();
  await h?.close();
});

type App = Harness['app'];

async function createTrip(owner: string): Promise<{ trip: Trip; etag: string }> {
  const res = await postTrip(
    h.app,
    owner,
    tripFields({ name: 'Coast', startDate: '2026-07-01', endDate: '2026-07-09' }, [
      { name: 'Porto', latitude: '41.15', longitude: '-8.61', story: 'Tiles' },
      { name: 'Lisbon', latitude: '38.72', longitude: '-9.14' },
    ]),
    [{ field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' }],
  );
  expect(res.statusCode, res.body).toBe(201);
  await h.variants.idle();
  return { trip: res.json<Trip>(), etag: res.headers.etag as string };
}

const patch = (app: App, owner: string, id: string, body: TripPatch, ifMatch: string) =>
  app.inject({
    method: 'PATCH',
    url: `/api/trips/${id}`,
    headers: { ...as(owner), 'content-type': 'application/json', 'if-match': ifMatch },
    payload: JSON.stringify(body),
  });

/** The kept copy of `trip` at `version`, next to the trip as stored (what a read gives). */
async function keptAndStored(owner: string, id: string, version: number) {
  return {
    kept: h.trips.writtenHere(id, owner, [version]),
    stored: await h.trips.findOwned(id, owner),
  };
}

describe('a series of changes to one trip', () => {
  it('keeps the trip exactly as stored after each change: edits, a photo added, a photo removed', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    // nothing kept before this instance changed the trip
    expect(h.trips.writtenHere(trip._id, owner, [1])).toBeUndefined();

    let tag = etag;
    for (const [n, body] of [
      { name: 'Coast, renamed' },
      {
        destinations: [
          { _id: trip.destinations[1]!._id, story: 'Trams' },
          { _id: trip.destinations[0]!._id },
        ],
      },
      { visibility: 'private' },
    ].entries()) {
      const res = await patch(h.app, owner, trip._id, body as TripPatch, tag);
      expect(res.statusCode, res.body).toBe(200);
      tag = res.headers.etag as string;
      const { kept, stored } = await keptAndStored(owner, trip._id, n + 2);
      expect(kept).toBeDefined();
      expect(kept).toEqual(stored);
    }

    const destinationId = trip.destinations[0]!._id;
    const form = await multipart(
      [],
      [{ field: TRIP_PHOTOS_FIELD, data: image, filename: 'b.png', type: 'image/png' }],
    );
    const added = await h.app.inject({
      method: 'POST',
      url: `/api/trips/${trip._id}/destinations/${destinationId}/photos`,
      payload: form.payload,
      headers: { ...form.headers, ...as(owner), 'if-match': tag },
    });
    expect(added.statusCode, added.body).toBe(201);
    tag = added.headers.etag as string;
    expect(tag).toBe(tripETag(5));
    const afterAdd = await keptAndStored(owner, trip._id, 5);
    expect(afterAdd.kept).toEqual(afterAdd.stored);
    // its display variant recorded (rev moves): not kept any more, read again
    await h.variants.idle();
    expect(h.trips.writtenHere(trip._id, owner, [5])).toBeUndefined();

    const url = added.json<Trip>().destinations.find((d) => d._id === destinationId)!.photos[0]!;
    const photoId = url.split('?')[0]!.split('/').pop()!;
    const removed = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}/destinations/${destinationId}/photos/${photoId}`,
      headers: { ...as(owner), 'if-match': tag },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const afterRemove = await keptAndStored(owner, trip._id, 6);
    expect(afterRemove.kept).toEqual(afterRemove.stored);
  });

  it("another instance's change since: a stale If-Match is 412, the current one applies over that change", async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const first = await patch(h.app, owner, trip._id, { name: 'Here' }, etag);
    expect(first.statusCode).toBe(200);
    const v2 = first.headers.etag as string;

    // the second instance changes the story of Lisbon over version 2
    const there = await patch(
      other,
      owner,
      trip._id,
      {
        destinations: [
          { _id: trip.destinations[0]!._id },
          { _id: trip.destinations[1]!._id, story: 'Written there' },
        ],
      },
      v2,
    );
    expect(there.statusCode).toBe(200);
    expect(there.headers.etag).toBe(tripETag(3));

    // this instance still keeps version 2: naming it is stale all the same, nothing changes
    const stale = await patch(h.app, owner, trip._id, { name: 'Stale' }, v2);
    expect(stale.statusCode).toBe(412);
    expect((await h.trips.findOwned(trip._id, owner))?.name).toBe('Here');

    const current = await patch(h.app, owner, trip._id, { name: 'Both' }, tripETag(3));
    expect(current.statusCode).toBe(200);
    const both = current.json<Trip>();
    expect(both.name).toBe('Both');
    expect(both.destinations.map((d) => d.story)).toEqual(['Tiles', 'Written there']);
    expect(current.headers.etag).toBe(tripETag(4));
  });

  it('a display variant recorded elsewhere at the same version: the change does not undo it', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const first = await patch(h.app, owner, trip._id, { name: 'Kept here' }, etag);
    expect(first.statusCode).toBe(200);
    expect(h.trips.writtenHere(trip._id, owner, [2])).toBeDefined();

    // what another instance's image pipeline writes: the photo's display variant and `rev`,
    // the version unchanged
    const marker = { key: 'elsewhere/display.webp', contentType: 'image/webp', bytes: 1 };
    const recorded = await h.trips.collection.updateOne(
      { _id: trip._id },
      { $set: { 'destinations.0.photos.0.display': marker }, $inc: { rev: 1 } },
    );
    expect(recorded.modifiedCount).toBe(1);

    const next = await patch(h.app, owner, trip._id, { name: 'Renamed' }, tripETag(2));
    expect(next.statusCode).toBe(200);
    const stored = await h.trips.findOwned(trip._id, owner);
    expect(stored?.name).toBe('Renamed');
    expect(stored?.destinations[0]!.photos[0]!.display).toEqual(marker);
    expect(h.trips.writtenHere(trip._id, owner, [3])).toEqual(stored);
  });

  it("deleted through another instance: the kept copy does not bring it back (404), nor does a stranger's id", async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const first = await patch(h.app, owner, trip._id, { name: 'Soon gone' }, etag);
    expect(first.statusCode).toBe(200);
    const v2 = first.headers.etag as string;

    expect((await patch(h.app, newUserId(), trip._id, { name: 'Not mine' }, v2)).statusCode).toBe(
      404,
    );
    const deleted = await other.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await patch(h.app, owner, trip._id, { name: 'Back?' }, v2)).statusCode).toBe(404);
    const doc = await h.trips.collection.findOne({ _id: trip._id });
    expect(doc === null || doc.deletedAt !== null).toBe(true);
    expect(doc?.name ?? 'Soon gone').toBe('Soon gone');
  });
});
