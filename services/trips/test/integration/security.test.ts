import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TripLimits, type Trip } from '@wayfarer/contracts';
import { gatewayHeaders } from '@wayfarer/test-kit';
import { HTML, SVG, TEXT } from '../fixtures';
import {
  as,
  createSimpleTrip,
  multipart,
  newUserId,
  postTrip,
  tripFields,
  type FilePart,
} from './harness';
import {
  useSecurityHarness,
  expect4xx,
  expectNoTrace,
  h,
  image,
  jpeg,
  oneDestination,
  oslo,
} from './security-harness';

useSecurityHarness();

describe('another user’s trip: 404, nothing changes', () => {
  const owner = newUserId();
  const intruder = newUserId();
  let trip: Trip;

  beforeAll(async () => {
    trip = await createSimpleTrip(h, owner, image);
  });

  it('GET /api/trips/:id', async () => {
    const res = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(intruder) });
    expect4xx(res, 404, /^Trip not found\.$/);
  });

  it('DELETE /api/trips/:id', async () => {
    const objects = await h.photos.list(`${trip._id}/`);
    expect(objects).toHaveLength(2);
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(intruder),
    });
    expect4xx(res, 404, /^Trip not found\.$/);
    const doc = await h.trips.collection.findOne({ _id: trip._id });
    expect(doc?.deletedAt).toBeNull();
    expect(await h.photos.list(`${trip._id}/`)).toEqual(objects);
    const mine = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(mine.json()).toEqual(trip);
  });

  it('the same answer as for an unknown or malformed id', async () => {
    for (const id of ['0123456789abcdef01234567', 'abc', 'ABCDEF0123456789ABCDEF01', '%24where']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await h.app.inject({ method, url: `/api/trips/${id}`, headers: as(owner) });
        expect4xx(res, 404, /^Trip not found\.$/);
      }
    }
  });

  it('photo URLs: strict params, another trip’s photo id, unknown ids: 404', async () => {
    const photoId = trip.destinations[0]!.photos[0]!.split('/').pop()!;
    const other = await createSimpleTrip(h, owner, image);
    for (const url of [
      `/api/photos/${trip._id}/${'0'.repeat(32)}`,
      `/api/photos/${other._id}/${photoId}`,
      `/api/photos/${'0'.repeat(24)}/${photoId}`,
      `/api/photos/${trip._id}/${photoId.toUpperCase()}`,
      `/api/photos/${trip._id}/${photoId}.webp`,
      `/api/photos/${trip._id}/..%2F..%2Fetc%2Fpasswd`,
      `/api/photos/${trip._id}/${photoId.slice(0, 31)}`,
      `/api/photos/${trip._id}`,
    ]) {
      const res = await h.app.inject({ url, headers: as(owner) });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('no identity: 401 on every route', async () => {
    const photo = trip.destinations[0]!.photos[0]!;
    for (const [method, url] of [
      ['GET', '/api/mytrips'],
      ['GET', `/api/trips/${trip._id}`],
      ['DELETE', `/api/trips/${trip._id}`],
      ['GET', photo],
    ] as const) {
      const res = await h.app.inject({ method, url });
      expect4xx(res, 401, /signed in/);
    }
    const body = await multipart(oneDestination());
    const res = await h.app.inject({ method: 'POST', url: '/api/trips', ...body });
    expect4xx(res, 401, /signed in/);
    expect(await h.trips.collection.findOne({ _id: trip._id })).toMatchObject({ deletedAt: null });
  });
});

describe('photos that are not images, or too large: 4xx, no trip, no objects', () => {
  it.each([
    [
      'text',
      () => TEXT,
      'me.jpg',
      'image/jpeg',
      400,
      /photos\[0\] \("me\.jpg"\) must be a JPEG, PNG, WebP or GIF image\./,
    ],
    ['svg', () => SVG, 'me.svg', 'image/svg+xml', 400, /must be a JPEG, PNG, WebP or GIF image/],
    ['html', () => HTML, 'me.png', 'image/png', 400, /must be a JPEG, PNG, WebP or GIF image/],
    [
      'pdf',
      () => Buffer.from('%PDF-1.7\n1 0 obj\n<< >>\nendobj\n'),
      'a.pdf',
      'application/pdf',
      400,
      /must be a JPEG/,
    ],
    [
      'truncated png header',
      () => image.subarray(0, 10),
      'me.png',
      'image/png',
      400,
      /must be a JPEG/,
    ],
    [
      'empty file with a name',
      () => new Uint8Array(0),
      'me.png',
      'image/png',
      400,
      /must be a JPEG/,
    ],
    [
      'corrupt jpeg (right magic, junk inside)',
      () => Buffer.concat([jpeg.subarray(0, 30), Buffer.alloc(5000, 0x41)]),
      'x.jpg',
      'image/jpeg',
      400,
      /photos\[0\] \("x\.jpg"\) could not be read as an image\./,
    ],
    [
      'truncated jpeg',
      () => jpeg.subarray(0, Math.floor(jpeg.length / 3)),
      'cut.jpg',
      'image/jpeg',
      400,
      /could not be read as an image/,
    ],
  ])('%s', async (_name, data, filename, type, status, message) => {
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), oneDestination(), [
        { field: 'photos[0]', data: data(), filename, type },
      ]);
      expect4xx(res, status, message);
    });
  });

  it('a bad photo after good ones: nothing of the good ones is left either', async () => {
    await expectNoTrace(async () => {
      const res = await postTrip(
        h.app,
        newUserId(),
        tripFields({ name: 'T' }, [oslo, { ...oslo, name: 'Bergen' }]),
        [
          { field: 'photos[0]', data: image, filename: 'ok.png' },
          { field: 'photos[0]', data: jpeg, filename: 'ok.jpg' },
          { field: 'photos[1]', data: SVG, filename: 'evil.svg' },
        ],
      );
      expect4xx(res, 400, /photos\[1\] \("evil\.svg"\) must be a JPEG/);
    });
  });

  it('an oversized photo: 413 with a clear message', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(TripLimits.photoMaxBytes + 1 - jpeg.length)]);
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), oneDestination(), [
        { field: 'photos[0]', data: big, filename: 'big.jpg', type: 'image/jpeg' },
      ]);
      expect4xx(res, 413, /^Photo too large: each photo must be at most 15 MB\.$/);
    });
  });

  it('an oversized photo over real HTTP: 413, and the answer arrives', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const big = Buffer.concat([jpeg, Buffer.alloc(TripLimits.photoMaxBytes + 1024 * 1024)]);
    const body = await multipart(oneDestination(), [
      { field: 'photos[0]', data: big, filename: 'big.jpg' },
    ]);
    await expectNoTrace(async () => {
      const res = await fetch(`${address}/api/trips`, {
        method: 'POST',
        headers: {
          ...body.headers,
          ...gatewayHeaders('POST', '/api/trips', { userId: newUserId() }),
        },
        body: body.payload,
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { message: string }).message).toMatch(/^Photo too large/);
    });
  });

  it('a photo exactly at the size limit is accepted', async () => {
    const exact = Buffer.concat([jpeg, Buffer.alloc(TripLimits.photoMaxBytes - jpeg.length)]);
    const res = await postTrip(h.app, newUserId(), oneDestination(), [
      { field: 'photos[0]', data: exact, filename: 'max.jpg' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
  });

  it(`more than ${TripLimits.photosPerDestinationMax} photos for one destination: 400`, async () => {
    const files: FilePart[] = Array.from({ length: 11 }, () => ({
      field: 'photos[0]',
      data: image,
    }));
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), oneDestination(), files);
      expect4xx(res, 400, /^A destination may have at most 10 photos\.$/);
    });
  });

  it(`more than ${TripLimits.photosPerTripMax} photos in a trip: 400`, async () => {
    const destinations = Array.from({ length: 5 }, (_, i) => ({ ...oslo, name: `D${i}` }));
    const files: FilePart[] = Array.from({ length: 41 }, (_, i) => ({
      field: `photos[${Math.floor(i / 10)}]`,
      data: image,
    }));
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), tripFields({}, destinations), files);
      expect4xx(res, 400, /^A trip may have at most 40 photos\.$/);
    });
  });
});

describe('storage failures: no trip half-created', () => {
  // faults injected into the running service's own stores, restored after each test
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('MinIO fails during the uploads: 503, the uploaded objects are removed, no trip', async () => {
    const putFile = h.photos.putFile.bind(h.photos);
    let puts = 0;
    vi.spyOn(h.photos, 'putFile').mockImplementation(async (key, path, contentType) => {
      if (++puts === 2) throw new Error('MinIO went away');
      return putFile(key, path, contentType);
    });
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), oneDestination(), [
        { field: 'photos[0]', data: image },
        { field: 'photos[0]', data: jpeg },
        { field: 'photos[0]', data: image },
      ]);
      expect4xx(res, 503, /^Photo storage is unavailable; please try again later\.$/);
    });
    expect(puts).toBeGreaterThanOrEqual(2);
  });

  it('the trip insert fails after the uploads: 500, the objects are removed, no trip', async () => {
    const insert = vi.spyOn(h.trips, 'insert').mockRejectedValue(new Error('MongoDB went away'));
    await expectNoTrace(async () => {
      const res = await postTrip(h.app, newUserId(), oneDestination(), [
        { field: 'photos[0]', data: image },
        { field: 'photos[0]', data: jpeg },
      ]);
      expect4xx(res, 500, /^Something went wrong\.$/);
    });
    expect(insert).toHaveBeenCalledTimes(1);
  });
});
