import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TripLimits, type Trip } from '@wayfarer/contracts';
import { gatewayHeaders } from '@wayfarer/test-kit';
import { HTML, largeJpeg, png, SVG, TEXT } from '../fixtures';
import {
  as,
  createSimpleTrip,
  multipart,
  newUserId,
  postTrip,
  startTrips,
  tripFields,
  type FilePart,
  type Harness,
} from './harness';

let h: Harness;
let image: Buffer;
let jpeg: Buffer;
beforeAll(async () => {
  h = await startTrips();
  [image, jpeg] = await Promise.all([png(), largeJpeg(300, 200)]);
});
afterAll(async () => {
  await h?.close();
});

const tripCount = () => h.trips.collection.countDocuments({});
const objectCount = async () => (await h.photos.list()).length;

/** Runs `fn` and checks it created no trip and left nothing in the bucket. */
async function expectNoTrace(fn: () => Promise<void>) {
  await h.variants.idle(); // earlier trips' display variants are all stored
  const [trips, objects] = [await tripCount(), await objectCount()];
  await fn();
  expect(await tripCount()).toBe(trips);
  expect(await objectCount()).toBe(objects);
}

function expect4xx(res: LightMyRequestResponse, status: number, message: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string }>();
  expect(body.message).toMatch(message);
  expect(typeof body.error).toBe('string');
}

const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };
const oneDestination = () => tripFields({ name: 'T' }, [oslo]);

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

describe('bad input: 4xx with a message, never 500, never a partial write', () => {
  type Body = { payload: Buffer | string; headers: Record<string, string> };
  const raw = (payload: string | Buffer, contentType: string) => async (): Promise<Body> => ({
    payload,
    headers: { 'content-type': contentType },
  });
  const destinations = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...oslo, name: `D${i}` }));
  const cases: [string, () => Promise<Body>, number, RegExp][] = [
    [
      'bad trip date',
      () => multipart(tripFields({ name: 'T', startDate: '2024-02-30x' }, [])),
      400,
      /^startDate: must be a date/,
    ],
    [
      'impossible trip date',
      () => multipart(tripFields({ name: 'T', endDate: '2024-13-45' }, [])),
      400,
      /^endDate: must be a real date$/,
    ],
    [
      'February 30th',
      () => multipart(tripFields({ name: 'T', startDate: '2026-02-30' }, [])),
      400,
      /^startDate: must be a real date$/,
    ],
    [
      'February 29th of a common year, on a destination',
      () => multipart(tripFields({}, [{ ...oslo, endDate: '2025-02-29' }])),
      400,
      /^destinations\.0\.endDate: must be a real date$/,
    ],
    [
      'hex latitude',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '0x10' }])),
      400,
      /^destinations\.0\.latitude: latitude must be a number\.$/,
    ],
    [
      'exponent longitude',
      () => multipart(tripFields({}, [{ ...oslo, longitude: '1e2' }])),
      400,
      /^destinations\.0\.longitude: longitude must be a number\.$/,
    ],
    [
      'empty multipart body',
      raw('--xyz--\r\n', 'multipart/form-data; boundary=xyz'),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'body with no part',
      raw('\r\nnothing to see\r\n--xyz--\r\n', 'multipart/form-data; boundary=xyz'),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'destinations without the trip fields',
      () => multipart(oneDestination().filter(([name]) => name.startsWith('destinations'))),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'bad destination date',
      () => multipart(tripFields({}, [{ ...oslo, startDate: 'tomorrow' }])),
      400,
      /destinations\.0\.startDate/,
    ],
    [
      'latitude 200',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '200' }])),
      400,
      /destinations\.0\.latitude/,
    ],
    [
      'longitude -181',
      () => multipart(tripFields({}, [{ ...oslo, longitude: '-181' }])),
      400,
      /destinations\.0\.longitude/,
    ],
    [
      'latitude not a number',
      () => multipart(tripFields({}, [{ ...oslo, latitude: 'north' }])),
      400,
      /destinations\.0\.latitude: latitude must be a number/,
    ],
    [
      'empty coordinates',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '', longitude: '' }])),
      400,
      /latitude is required/,
    ],
    [
      'destination without a name',
      () => multipart(tripFields({}, [{ ...oslo, name: ' ' }])),
      400,
      /Destination name is required/,
    ],
    [
      'too many destinations',
      () => multipart(tripFields({}, destinations(21))),
      400,
      /at most 20 destinations/,
    ],
    [
      'gap in destination indexes',
      () =>
        multipart([
          ['destinations[0][name]', 'A'],
          ['destinations[0][latitude]', '1'],
          ['destinations[0][longitude]', '1'],
          ['destinations[2][name]', 'C'],
        ]),
      400,
      /destinations\[1\] is missing/,
    ],
    [
      'photos for a missing destination',
      () => multipart(oneDestination(), [{ field: 'photos[1]', data: image }]),
      400,
      /photos\[1\] belongs to no destination/,
    ],
    [
      'photos out of range',
      () => multipart(oneDestination(), [{ field: 'photos[25]', data: image }]),
      400,
      /at most 20 destinations/,
    ],
    [
      'unknown field',
      () => multipart({ ...Object.fromEntries(oneDestination()), ownerId: 'someone-else' }),
      400,
      /Unexpected field "ownerId"/,
    ],
    [
      'unknown destination field',
      () => multipart([...oneDestination(), ['destinations[0][_id]', 'x']]),
      400,
      /Unexpected field/,
    ],
    [
      'duplicated field',
      () =>
        multipart([
          ['name', 'a'],
          ['name', 'b'],
        ]),
      400,
      /name field was sent more than once/,
    ],
    [
      'file in a text field',
      () => multipart({}, [{ field: 'name', data: image }]),
      400,
      /Unexpected file "name"/,
    ],
    [
      'photos sent as text',
      () =>
        multipart({ ...Object.fromEntries(oneDestination()), 'photos[0]': 'http://evil/x.png' }),
      400,
      /must be an image file/,
    ],
    [
      'story too long',
      () => multipart(tripFields({}, [{ ...oslo, story: 'x'.repeat(TripLimits.storyMax + 1) }])),
      400,
      /story/,
    ],
    [
      'huge text field',
      () => multipart({ name: 'x'.repeat(200 * 1024) }),
      400,
      /name field is too long/,
    ],
    [
      'many unknown fields',
      () => multipart(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 'x']))),
      400,
      /Unexpected field/,
    ],
    [
      'JSON body',
      raw(JSON.stringify({ name: 'T' }), 'application/json'),
      415,
      /multipart\/form-data/,
    ],
    ['urlencoded body', raw('name=T', 'application/x-www-form-urlencoded'), 415, /./],
    ['multipart without boundary', raw('garbage', 'multipart/form-data'), 400, /malformed/],
    [
      'garbage with a boundary',
      raw(Buffer.from('\x00\x01 not multipart'), 'multipart/form-data; boundary=xyz'),
      400,
      /./,
    ],
    [
      'bad part headers',
      raw(
        '--xyz\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /without a field name/,
    ],
    [
      '__proto__ field',
      raw(
        '--xyz\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nv\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /./,
    ],
    [
      'JSON part',
      raw(
        '--xyz\r\nContent-Disposition: form-data; name="name"\r\nContent-Type: application/json\r\n\r\n{"$gt":""}\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /plain text/,
    ],
    [
      'truncated multipart',
      async () => {
        const body = await multipart(oneDestination(), [{ field: 'photos[0]', data: jpeg }]);
        return {
          payload: body.payload.subarray(0, body.payload.length - 200),
          headers: body.headers,
        };
      },
      400,
      /./,
    ],
  ];
  it.each(cases)('%s', async (_name, build, status, message) => {
    await expectNoTrace(async () => {
      const body = await build();
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/trips',
        payload: body.payload,
        headers: { ...body.headers, ...as(newUserId()) },
      });
      expect4xx(res, status, message);
    });
  });

  it('20 destinations with 10, 10, 10, 10 photos (the limits) are accepted', async () => {
    const files: FilePart[] = Array.from({ length: 40 }, (_, i) => ({
      field: `photos[${i % 4}]`,
      data: image,
    }));
    const res = await postTrip(
      h.app,
      newUserId(),
      tripFields({ name: 'Max' }, destinations(20)),
      files,
    );
    expect(res.statusCode, res.body).toBe(201);
    const trip = res.json<Trip>();
    expect(trip.destinations).toHaveLength(20);
    expect(trip.destinations.map((d) => d.photos.length).slice(0, 5)).toEqual([10, 10, 10, 10, 0]);
    await h.variants.idle();
    expect(await h.photos.list(`${trip._id}/`)).toHaveLength(80);
  });
});
