import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Trip, TripSummary } from '@wayfarer/contracts';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropBucket,
  dropConsumerGroups,
  dropMongoDatabase,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { GPS_FIXTURE, jpegWithGps } from '@wayfarer/test-kit/images';
import { TripsEnv } from '../../src/config';
import {
  ERASURE_CONSUMER,
  FRIENDSHIP_CONSUMER,
  JOURNAL_STORIES_CONSUMER,
} from '../../src/events/consumers';
import { createService } from '../../src/service';
import type { TripsStore } from '../../src/store/trips';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };

/** Puts a trip's first photo back to "display variant not made yet" (a crash's state). */
async function unmakeVariant(trips: TripsStore, tripId: string): Promise<string> {
  const doc = (await trips.collection.findOne({ _id: tripId }))!;
  const photo = doc.destinations[0]!.photos[0]!;
  await trips.collection.updateOne(
    { _id: tripId },
    { $set: { 'destinations.0.photos.0.display': null, pendingVariants: [photo.id] } },
  );
  return photo.display!.key;
}

describe('a photo before its display variant is ready', () => {
  let h: Harness;
  const owner = newUserId();
  let trip: Trip;
  beforeAll(async () => {
    h = await startTrips();
    const res = await postTrip(h.app, owner, tripFields({ name: 'Later' }, [oslo]), [
      {
        field: 'photos[0]',
        data: await jpegWithGps({ width: 2000, height: 1200 }),
        filename: 'gps.jpg',
        type: 'image/jpeg',
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    trip = res.json<Trip>();
    await h.variants.idle();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves the stripped original, uncached, under a pending URL; then the variant under the plain one', async () => {
    const displayKey = await unmakeVariant(h.trips, trip._id);
    await h.photos.remove(displayKey);
    const plainUrl = trip.destinations[0]!.photos[0]!.replace('?pending=1', '');

    // the trip and the list name the pending URL
    const detail = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(detail.json<Trip>().destinations[0]!.photos).toEqual([`${plainUrl}?pending=1`]);
    const list = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(list.json<TripSummary[]>()[0]!.destinations[0]!.photos).toEqual([
      `${plainUrl}?pending=1`,
    ]);

    // it serves the stored original: re-encoded, no EXIF, never kept by a cache
    const standIn = await h.app.inject({ url: plainUrl, headers: as(owner) });
    expect(standIn.statusCode).toBe(200);
    expect(standIn.headers['content-type']).toBe('image/jpeg');
    expect(standIn.headers['cache-control']).toBe('no-store');
    const doc = (await h.trips.findOwned(trip._id, owner))!.destinations[0]!.photos[0]!;
    expect(standIn.rawPayload.equals(await bytesOf(await h.photos.get(doc.original.key)))).toBe(
      true,
    );
    expect((await sharp(standIn.rawPayload).metadata()).exif).toBeUndefined();
    expect(standIn.rawPayload.includes(GPS_FIXTURE.mapDatum)).toBe(false);
    expect(await sharp(standIn.rawPayload).metadata()).toMatchObject({ width: 2000 });

    // the janitor's resume makes it; the trip then answers the plain URL, which serves it
    expect(await h.variants.resume()).toBe(1);
    await h.variants.idle();
    const after = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(after.json<Trip>().destinations[0]!.photos).toEqual([plainUrl]);
    const served = await h.app.inject({ url: plainUrl, headers: as(owner) });
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('private, max-age=86400');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 1600,
      height: 960,
    });
    expect((await h.trips.collection.findOne({ _id: trip._id }))!.pendingVariants).toBeUndefined();
    expect(await h.photos.stat(displayKey)).not.toBeNull();
  });

  it('a trip deleted before its variant is made leaves no variant behind', async () => {
    const res = await postTrip(h.app, owner, tripFields({ name: 'Gone' }, [oslo]), [
      {
        field: 'photos[0]',
        data: await jpegWithGps({ width: 800, height: 600 }),
        filename: 'gone.jpg',
        type: 'image/jpeg',
      },
    ]);
    const gone = res.json<Trip>();
    await h.variants.idle();
    await unmakeVariant(h.trips, gone._id);
    const deleted = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${gone._id}`,
      headers: as(owner),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await h.variants.resume()).toBe(0);
    await h.variants.idle();
    expect(await h.photos.list(`${gone._id}/`)).toEqual([]);
  });
});

describe('display variants survive a restart', () => {
  it('what a stopped instance left unmade is made by the next one on start (janitor)', async () => {
    const suffix = uniqueSuffix();
    const env = loadConfig(
      TripsEnv,
      testServiceEnv({ MONGO_DB: `t_trips_${suffix}`, PHOTO_BUCKET: `t-photos-${suffix}` }),
    );
    const owner = newUserId();
    try {
      const first = await createService(env, { skipHistory: true });
      const app = throughGateway(first.app);
      const res = await postTrip(app, owner, tripFields({ name: 'Restart' }, [oslo]), [
        {
          field: 'photos[0]',
          data: await jpegWithGps({ width: 1800, height: 1000 }),
          filename: 'a.jpg',
          type: 'image/jpeg',
        },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const tripId = res.json<Trip>()._id;
      await first.variants.idle();
      // the state a crash between the answer and the variant leaves
      const displayKey = await unmakeVariant(first.trips, tripId);
      await first.photos.remove(displayKey);
      await first.close();

      const second = await createService(env, { skipHistory: true });
      try {
        await vi.waitFor(
          async () => {
            const doc = await second.trips.collection.findOne({ _id: tripId });
            expect(doc!.pendingVariants).toBeUndefined();
            expect(doc!.destinations[0]!.photos[0]!.display).toMatchObject({
              key: displayKey,
              contentType: 'image/webp',
            });
          },
          { timeout: 20_000, interval: 100 },
        );
        expect(await second.photos.stat(displayKey)).not.toBeNull();
      } finally {
        await second.close();
      }
    } finally {
      await dropConsumerGroups(
        [FRIENDSHIP_CONSUMER, JOURNAL_STORIES_CONSUMER, ERASURE_CONSUMER].map((c) =>
          groupId(env, c),
        ),
      );
      await dropMongoDatabase(env.MONGO_DB);
      await dropBucket(env.PHOTO_BUCKET);
    }
  });
});
