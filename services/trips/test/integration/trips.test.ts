import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storyPreview, Topics, Trip, TripSummary } from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { SUMMARY_VERSION } from '../../src/store/trips';
import { largeJpeg, png, sidewaysJpeg } from '../fixtures';
import {
  as,
  createSimpleTrip,
  newUserId,
  postTrip,
  startTrips,
  tripFields,
  type Harness,
} from './harness';

let h: Harness;
let big: Buffer;
let small: Buffer;
beforeAll(async () => {
  h = await startTrips();
  [big, small] = await Promise.all([largeJpeg(3000, 2000), png(300, 200)]);
});
afterAll(async () => {
  await h?.close();
});

type Envelope = {
  id: string;
  type: string;
  version: number;
  aggregateId: string;
  payload: Record<string, unknown> & { tripId: string; destinations: Record<string, unknown>[] };
};

const today = () => new Date().toISOString().slice(0, 10);

/** `trip` as answered once every display variant is ready: plain photo URLs. */
const ready = (trip: Trip): Trip => ({
  ...trip,
  destinations: trip.destinations.map((d) => ({
    ...d,
    photos: d.photos.map((url) => url.replace(/\?pending=1$/, '')),
  })),
});

describe('a trip from creation to deletion', () => {
  const owner = newUserId();
  let trip: Trip;

  it('POST /api/trips with 2 destinations and photos: 201 with the spec trip', async () => {
    const res = await postTrip(
      h.app,
      owner,
      tripFields({ name: 'Summer in France', startDate: '2024-07-01', endDate: '2024-07-20' }, [
        {
          name: 'Paris',
          latitude: '48.8566',
          longitude: '2.3522',
          startDate: '2024-07-01',
          endDate: '2024-07-05',
          story: `A long story. ${'Croissants. '.repeat(20)}`,
        },
        {
          name: 'Lyon',
          latitude: '45.764',
          longitude: '4.8357',
          startDate: '2024-07-06',
          endDate: '2024-07-20',
          story: '',
        },
      ]),
      [
        // typed by content: the declared names and types are wrong on purpose
        { field: 'photos[0]', data: big, filename: 'eiffel.png', type: 'image/png' },
        { field: 'photos[0]', data: small, filename: 'louvre.png', type: 'image/png' },
        {
          field: 'photos[1]',
          data: await sidewaysJpeg(),
          filename: 'sideways.jpg',
          type: 'text/plain',
        },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    trip = res.json<Trip>();
    expect(Trip.parse(trip)).toEqual(trip);
    expect(Object.keys(trip).sort()).toEqual([
      '_id',
      'destinations',
      'endDate',
      'name',
      'startDate',
      'visibility',
    ]);
    expect(trip).toMatchObject({
      name: 'Summer in France',
      startDate: '2024-07-01',
      endDate: '2024-07-20',
      visibility: 'friends',
    });
    expect(trip._id).toMatch(/^[0-9a-f]{24}$/);
    const [paris, lyon] = trip.destinations;
    expect(paris).toMatchObject({
      name: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
      startDate: '2024-07-01',
      endDate: '2024-07-05',
    });
    expect(paris!.story).toMatch(/^A long story\./);
    expect(lyon).toMatchObject({ name: 'Lyon', latitude: 45.764, longitude: 4.8357, story: '' });
    expect(paris!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(lyon!._id).not.toBe(paris!._id);
    expect(paris!.photos).toHaveLength(2);
    expect(lyon!.photos).toHaveLength(1);
    // answered as soon as the stripped originals are stored: display variants come later
    for (const url of [...paris!.photos, ...lyon!.photos]) {
      expect(url).toMatch(new RegExp(`^/api/photos/${trip._id}/[0-9a-f]{32}\\?pending=1$`));
    }
  });

  it('the display variants are made after the answer; the trip then answers plain photo URLs', async () => {
    await h.variants.idle();
    const stored = await h.trips.collection.findOne({ _id: trip._id });
    expect(stored!.pendingVariants).toBeUndefined();
    expect(stored!.destinations.flatMap((d) => d.photos).every((p) => p.display)).toBe(true);
    const res = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(res.json()).toEqual(ready(trip));
  });

  it('stores originals and display variants in MinIO; the display is smaller', async () => {
    await h.variants.idle();
    const stored = await h.trips.findOwned(trip._id, owner);
    const photos = stored!.destinations.flatMap((d) => d.photos);
    expect(photos.map((p) => p.id)).toEqual(
      ready(trip).destinations.flatMap((d) => d.photos.map((u) => u.split('/').pop())),
    );
    expect(photos.map((p) => p.original.key.split('.').pop())).toEqual(['jpg', 'png', 'jpg']);
    expect((await h.photos.list(`${trip._id}/`)).sort()).toEqual(
      photos.flatMap((p) => [p.original.key, p.display!.key]).sort(),
    );

    const bigPhoto = stored!.destinations[0]!.photos[0]!;
    expect(bigPhoto.original).toMatchObject({
      contentType: 'image/jpeg',
      width: 3000,
      height: 2000,
    });
    expect(bigPhoto.display).toMatchObject({
      contentType: 'image/webp',
      width: 1600,
      height: 1067,
    });
    expect(bigPhoto.display!.bytes).toBeLessThan(big.length / 2);

    // the original is re-encoded at full size by the image pipeline (see photo-pipeline.test)
    const original = await h.photos.get(bigPhoto.original.key);
    const chunks: Buffer[] = [];
    for await (const c of original!) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBe(bigPhoto.original.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({
      format: 'jpeg',
      width: 3000,
      height: 2000,
    });
  });

  it('the owner reads the display variant through the photo URL', async () => {
    const res = await h.app.inject({ url: trip.destinations[0]!.photos[0]!, headers: as(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(big.length / 2);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 1067 });

    // the sideways photo is served upright, without its EXIF
    const sideways = await h.app.inject({
      url: trip.destinations[1]!.photos[0]!,
      headers: as(owner),
    });
    expect(await sharp(sideways.rawPayload).metadata()).toMatchObject({ width: 200, height: 400 });
    expect(sideways.rawPayload.includes('exif-marker-owner')).toBe(false);
  });

  it('a stranger gets 404 for the photo; no session is 401', async () => {
    const url = trip.destinations[0]!.photos[0]!;
    const stranger = await h.app.inject({ url, headers: as(newUserId()) });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: 'not_found', message: 'Photo not found.' });
    expect((await h.app.inject({ url })).statusCode).toBe(401);
  });

  it('GET /api/trips/:id answers the owner the same trip', async () => {
    const res = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(ready(trip));
  });

  it('GET /api/mytrips lists the caller’s trips, newest first, as summaries', async () => {
    const second = await createSimpleTrip(h, owner, small, 'Later trip');
    await h.variants.idle();
    const res = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(res.statusCode).toBe(200);
    const list = res.json<TripSummary[]>();
    expect(TripSummary.array().parse(list)).toEqual(list);
    expect(list.map((t) => t._id)).toEqual([second._id, trip._id]);
    // the spec's fields; each story is its preview, each destination's photos its first only
    const full = ready(trip);
    expect(list[1]).toEqual({
      ...full,
      destinations: full.destinations.map((d) => ({
        ...d,
        story: storyPreview(d.story),
        photos: d.photos.slice(0, 1),
      })),
    });
    expect(list[1]!.destinations[0]!.story).toHaveLength(103);
    expect(list[1]!.destinations[0]!.story.endsWith('...')).toBe(true);
    expect(list[1]!.destinations[0]!.photos).toHaveLength(1);
    // nobody else sees them
    const other = await h.app.inject({ url: '/api/mytrips', headers: as(newUserId()) });
    expect(other.json()).toEqual([]);
  });

  it('publishes trip.created with the destinations to Kafka, and empties the outbox', async () => {
    const [event] = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.created' && e.aggregateId === trip._id,
    );
    expect(event).toMatchObject({
      type: 'trip.created',
      version: 1,
      aggregateId: trip._id,
      payload: {
        tripId: trip._id,
        ownerId: owner,
        name: 'Summer in France',
        startDate: '2024-07-01',
        endDate: '2024-07-20',
      },
    });
    const [paris, lyon] = event!.payload.destinations;
    expect(paris).toEqual({
      id: trip.destinations[0]!._id,
      name: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
      startDate: '2024-07-01',
      endDate: '2024-07-05',
      photos: ready(trip).destinations[0]!.photos,
      storyPreview: `${trip.destinations[0]!.story.slice(0, 100)}...`,
    });
    expect(lyon).toMatchObject({ id: trip.destinations[1]!._id, storyPreview: '' });
    await expect
      .poll(async () => (await h.trips.collection.findOne({ _id: trip._id }))?.outbox, {
        message: 'the outbox to empty',
        timeout: 20_000,
      })
      .toEqual([]);
  });

  it('DELETE /api/trips/:id: deletedTrip, photos gone, trip.deleted published, doc removed', async () => {
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deletedTrip: ready(trip),
      message: 'Trip deleted successfully.',
    });

    expect(await h.photos.list(`${trip._id}/`)).toEqual([]);
    // gone from the API at once, even before the relay removes the document
    expect(
      (await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) })).statusCode,
    ).toBe(404);
    const list = (await h.app.inject({ url: '/api/mytrips', headers: as(owner) })).json<Trip[]>();
    expect(list.map((t) => t._id)).not.toContain(trip._id);
    expect(
      (await h.app.inject({ url: trip.destinations[0]!.photos[0]!, headers: as(owner) }))
        .statusCode,
    ).toBe(404);

    const [event] = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.deleted' && e.aggregateId === trip._id,
    );
    expect(event!.payload).toMatchObject({ tripId: trip._id, ownerId: owner });
    expect(event!.payload.destinations.map((d) => d.id)).toEqual(
      trip.destinations.map((d) => d._id),
    );
    expect(event!.payload.destinations[0]).toMatchObject({
      name: 'Paris',
      photos: ready(trip).destinations[0]!.photos,
    });

    await expect
      .poll(() => h.trips.collection.countDocuments({ _id: trip._id }), {
        message: 'the relay to remove the deleted trip',
        timeout: 20_000,
      })
      .toBe(0);
  });

  it('deleting again: 404', async () => {
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the list of trips stored before their summary was kept', () => {
  it('is answered the same: made at read time, then stored at start (TripsStore.init)', async () => {
    const owner = newUserId();
    const long = 'A long day by the fjord. '.repeat(10);
    const res = await postTrip(
      h.app,
      owner,
      tripFields({ name: 'Old trip' }, [
        { name: 'Bergen', latitude: '60.39', longitude: '5.32', story: long },
        { name: 'Flåm', latitude: '60.86', longitude: '7.11' },
      ]),
      [
        { field: 'photos[0]', data: small, filename: 'a.png', type: 'image/png' },
        { field: 'photos[1]', data: small, filename: 'c.png', type: 'image/png' },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    const old = res.json<Trip>();
    const recent = await createSimpleTrip(h, owner, small, 'Recent trip');
    await h.variants.idle();
    const list = async () =>
      (await h.app.inject({ url: '/api/mytrips', headers: as(owner) })).json<TripSummary[]>();
    const before = await list();
    expect(before.map((t) => t._id)).toEqual([recent._id, old._id]);

    // as stored before summaries were kept (none) or by another version of them (outdated)
    await h.trips.collection.updateOne(
      { _id: old._id },
      { $unset: { summaryJson: '', summaryVersion: '' } },
    );
    await h.trips.collection.updateOne(
      { _id: recent._id },
      { $set: { summaryJson: Buffer.from('{"stale":true}'), summaryVersion: 0 } },
    );
    // the list kept by this instance still answers (nothing bumped the owner's list version)
    const { misses } = h.mytrips.stats();
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses);
    // read again (as after a write): made at read time
    await h.trips.versions.bump(owner);
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses + 1);
    expect(before[1]!.destinations.map((d) => [d.story, d.photos.length])).toEqual([
      [storyPreview(long), 1],
      ['', 1],
    ]);

    // the next start stores them again; the list reads them from there
    await h.trips.init();
    const stored = await h.trips.collection
      .find({ _id: { $in: [old._id, recent._id] } }, { promoteBuffers: true })
      .toArray();
    for (const doc of stored) {
      expect(doc.summaryVersion).toBe(SUMMARY_VERSION);
      expect(JSON.parse(doc.summaryJson.toString())).toEqual(before.find((t) => t._id === doc._id));
    }
    // the owner's list version was bumped by it: read again
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses + 2);
  });
});

describe('lenient where the spec is', () => {
  it('no name, no dates, no destinations: a trip dated today', async () => {
    const res = await postTrip(h.app, newUserId(), { name: '', startDate: '', endDate: '' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: '',
      startDate: today(),
      endDate: today(),
      destinations: [],
    });
  });

  it('destination dates default to the trip range; an empty "no file chosen" part is no photo', async () => {
    const res = await postTrip(
      h.app,
      newUserId(),
      tripFields({ name: 'T', startDate: '2024-01-01', endDate: '2024-02-01' }, [
        { name: 'Rome', latitude: '41.9', longitude: '12.5' },
      ]),
      [{ field: 'photos[0]', data: new Uint8Array(0), filename: '' }],
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Trip>().destinations[0]).toMatchObject({
      startDate: '2024-01-01',
      endDate: '2024-02-01',
      photos: [],
      story: '',
    });
  });

  it('concurrent deletes of one trip: exactly one wins, one trip.deleted', async () => {
    const owner = newUserId();
    const t = await createSimpleTrip(h, owner, small);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.app.inject({ method: 'DELETE', url: `/api/trips/${t._id}`, headers: as(owner) }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 404, 404, 404, 404, 404, 404, 404,
    ]);
    await expect
      .poll(() => h.trips.collection.countDocuments({ _id: t._id }), {
        message: 'the relay to remove the deleted trip',
        timeout: 20_000,
      })
      .toBe(0);
    const events = await waitForEvents<Envelope>(Topics.tripsTrip, (e) => e.aggregateId === t._id, {
      count: 2,
    });
    expect(events.map((e) => e.type)).toEqual(['trip.created', 'trip.deleted']);
  });
});

describe('deletes racing the relay (single-document atomicity, no locks)', () => {
  it('deleting trips right after creating them never loses a deletion', async () => {
    const owner = newUserId();
    for (let round = 0; round < 3; round++) {
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) => createSimpleTrip(h, owner, small, `Quick ${i}`)),
      );
      // the relay was kicked by each create and is publishing trip.created right now
      const results = await Promise.all(
        created.map((t) =>
          h.app.inject({ method: 'DELETE', url: `/api/trips/${t._id}`, headers: as(owner) }),
        ),
      );
      expect(results.map((r) => r.statusCode)).toEqual(created.map(() => 200));
      const ids = created.map((t) => t._id);
      await expect
        .poll(() => h.trips.collection.countDocuments({ _id: { $in: ids } }), {
          message: 'the relay to remove every deleted trip',
          timeout: 20_000,
        })
        .toBe(0);
      const events = await waitForEvents<Envelope>(
        Topics.tripsTrip,
        (e) => e.type === 'trip.deleted' && ids.includes(e.aggregateId),
        { count: ids.length },
      );
      expect(new Set(events.map((e) => e.aggregateId)).size).toBe(ids.length);
    }
    const list = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(list.json()).toEqual([]);
  });
});

describe('readiness', () => {
  it('/readyz checks MongoDB and MinIO', async () => {
    const res = await h.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      service: 'trips',
      checks: { mongo: 'ok', minio: 'ok' },
    });
  });
});
