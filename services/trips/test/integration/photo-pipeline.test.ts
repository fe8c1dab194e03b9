import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TripLimits, type Trip } from '@wayfarer/contracts';
import {
  exifTags,
  gifar,
  gifWithScript,
  GPS_FIXTURE,
  GPS_TAGS,
  gpsSecondsBytes,
  jpegWithGps,
  pngBomb,
  pngLyingHeader,
} from '@wayfarer/test-kit/images';
import { largeJpeg } from '../fixtures';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startTrips();
});
afterAll(async () => {
  await h?.close();
});

const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };
const oneDestination = () => tripFields({ name: 'Pipeline' }, [oslo]);

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Creates a trip with one photo; returns what is served and what is stored for it. */
async function uploadPhoto(photo: Buffer) {
  const owner = newUserId();
  const res = await postTrip(h.app, owner, oneDestination(), [
    { field: 'photos[0]', data: photo, filename: 'holiday.jpg', type: 'image/jpeg' },
  ]);
  expect(res.statusCode, res.body).toBe(201);
  const trip = res.json<Trip>();
  const url = trip.destinations[0]!.photos[0]!;
  await h.variants.idle();
  const served = await h.app.inject({ url, headers: as(owner) });
  expect(served.statusCode).toBe(200);
  const doc = (await h.trips.findOwned(trip._id, owner))!.destinations[0]!.photos[0]!;
  const original = await bytesOf(await h.photos.get(doc.original.key));
  const display = await bytesOf(await h.photos.get(doc.display!.key));
  return { served, doc, original, display };
}

/** No EXIF block, no GPS value, no marker of the fixture's metadata in `bytes`. */
async function expectNoExif(bytes: Buffer, what: string) {
  const meta = await sharp(bytes).metadata();
  expect(meta.exif, what).toBeUndefined();
  expect(bytes.includes('Exif'), what).toBe(false);
  expect(bytes.includes(GPS_FIXTURE.mapDatum), what).toBe(false);
  expect(bytes.includes(GPS_FIXTURE.copyright), what).toBe(false);
  for (const seconds of gpsSecondsBytes()) expect(bytes.includes(seconds), what).toBe(false);
}

describe('every photo goes through the image pipeline', () => {
  it('a JPEG with EXIF GPS tags: neither the served display nor the stored original has EXIF', async () => {
    const upload = await jpegWithGps({ width: 1200, height: 800 });
    const before = await sharp(upload).metadata();
    const tags = exifTags(before.exif);
    expect(tags.gps).toEqual(expect.arrayContaining([GPS_TAGS.latitude, GPS_TAGS.longitude]));
    expect(upload.includes(GPS_FIXTURE.mapDatum)).toBe(true);

    const { served, doc, original, display } = await uploadPhoto(upload);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'");
    expect(served.rawPayload.equals(display)).toBe(true);
    await expectNoExif(served.rawPayload, 'served display');
    await expectNoExif(original, 'stored original');
    expect(doc.original).toMatchObject({ contentType: 'image/jpeg', width: 1200, height: 800 });
    expect(await sharp(original).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1200,
      height: 800,
    });
  });

  it('a portrait photo stored sideways (orientation 6) is served and stored upright', async () => {
    const upload = await jpegWithGps({ width: 600, height: 400, orientation: 6 });
    expect(await sharp(upload).metadata()).toMatchObject({
      width: 600,
      height: 400,
      orientation: 6,
    });
    const { served, original } = await uploadPhoto(upload);
    for (const [what, bytes] of [
      ['served display', served.rawPayload],
      ['stored original', original],
    ] as const) {
      const meta = await sharp(bytes).metadata();
      expect(meta.width, what).toBeLessThan(meta.height!);
      expect(meta, what).toMatchObject({ width: 400, height: 600 });
      expect(meta.orientation ?? 1, what).toBe(1);
    }
  });

  it.each([
    ['a decompression bomb (400 megapixels, really compressed)', () => pngBomb(20_000, 20_000)],
    ['a PNG whose header claims 30000x30000', () => pngLyingHeader(30_000, 30_000)],
    ['a GIF with a script appended', () => gifWithScript()],
    ['a GIF with a JAR appended (GIFAR)', () => gifar()],
  ])('%s: 400, no trip, nothing in the bucket', async (_name, make) => {
    const photo = await make();
    const owner = newUserId();
    const [trips, objects] = [
      await h.trips.collection.countDocuments({}),
      (await h.photos.list()).length,
    ];
    // after a good photo, so a partial upload would show
    const good = await jpegWithGps({ width: 300, height: 200 });
    const res = await postTrip(h.app, owner, oneDestination(), [
      { field: 'photos[0]', data: good, filename: 'good.jpg', type: 'image/jpeg' },
      { field: 'photos[0]', data: photo, filename: 'evil.gif', type: 'image/gif' },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      /^photos\[0\] \("evil\.gif"\) (must be a JPEG, PNG, WebP or GIF image|could not be read as an image)\.$/,
    );
    expect(await h.trips.collection.countDocuments({})).toBe(trips);
    expect(await h.trips.collection.countDocuments({ ownerId: owner })).toBe(0);
    expect((await h.photos.list()).length).toBe(objects);
  });
});

/** Photos of `sizes` bytes: a real JPEG padded after its end (allowed, and dropped by the pipeline). */
async function paddedPhotos(sizes: number[]) {
  const photo = await largeJpeg(300, 200);
  return sizes.map((size, i) => ({
    field: 'photos[0]',
    data: Buffer.concat([photo, Buffer.alloc(size - photo.length)]),
    filename: `p${i}.jpg`,
    type: 'image/jpeg',
  }));
}

/** Sizes of photos, each at most the per-photo limit, adding up to `total`. */
function sizesAddingUpTo(total: number): number[] {
  const each = TripLimits.photoMaxBytes;
  const count = Math.ceil(total / each);
  return Array.from({ length: count }, (_, i) =>
    i < count - 1 ? each : total - each * (count - 1),
  );
}

describe(`photos of one trip: at most ${TripLimits.photosTotalMaxBytes / 1024 / 1024} MB in total`, () => {
  it('exactly the total is accepted', async () => {
    const files = await paddedPhotos(sizesAddingUpTo(TripLimits.photosTotalMaxBytes));
    expect(files.reduce((sum, f) => sum + f.data.length, 0)).toBe(TripLimits.photosTotalMaxBytes);
    const res = await postTrip(h.app, newUserId(), oneDestination(), files);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Trip>().destinations[0]!.photos).toHaveLength(files.length);
  });

  it('one byte over the total is a 413 with a clear message, nothing stored', async () => {
    const files = await paddedPhotos(sizesAddingUpTo(TripLimits.photosTotalMaxBytes + 1));
    expect(files.every((f) => f.data.length <= TripLimits.photoMaxBytes)).toBe(true);
    await h.variants.idle(); // the previous trip's display variants are all stored
    const [trips, objects] = [
      await h.trips.collection.countDocuments({}),
      (await h.photos.list()).length,
    ];
    const res = await postTrip(h.app, newUserId(), oneDestination(), files);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toEqual({
      error: 'payload_too_large',
      message: "Photos too large: a trip's photos must be at most 100 MB in total.",
    });
    expect(await h.trips.collection.countDocuments({})).toBe(trips);
    expect((await h.photos.list()).length).toBe(objects);
  });
});
