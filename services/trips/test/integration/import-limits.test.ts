import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyMessages,
  ImportErrors,
  ImportLimits,
  ImportMessages,
  ImportResult,
  TripSummary,
} from '@wayfarer/contracts';
import { zipBuffer } from '@wayfarer/test-kit/zip';
import { jpegWithGps } from '@wayfarer/test-kit/images';
import { polarstepsZip } from '../import-zip';
import { as, newUserId, startTrips, type Harness } from './harness';

/**
 * Each of `ImportLimits`'
 * bounds refuses an import up front (413 `import_limit`, the message naming the limit) with
 * nothing created, and a user's imports are rate-limited (429 `import_rate_limited` with
 * Retry-After); and the import's `Idempotency-Key` without a crash: a replay, the
 * key with another file, two requests with one key at once.
 */
let h: Harness;
let slow: Harness;
beforeAll(async () => {
  h = await startTrips();
  // reading a file may take 1 ms here: every ZIP is past it
  slow = await startTrips({}, { IMPORT_READ_TIMEOUT_MS: '1' });
});
afterAll(async () => {
  await h?.close();
  await slow?.close();
});

function importBody(file: Buffer, filename: string) {
  const boundary = `----wayfarer${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function postImport(
  user: string,
  file: Buffer,
  filename: string,
  options: { key?: string; on?: Harness } = {},
) {
  const body = importBody(file, filename);
  return (options.on ?? h).app.inject({
    method: 'POST',
    url: '/api/import',
    payload: body.payload,
    headers: {
      ...body.headers,
      ...as(user),
      ...(options.key ? { [IDEMPOTENCY_KEY_HEADER]: options.key } : {}),
    },
  });
}

async function myTrips(user: string, on: Harness = h): Promise<TripSummary[]> {
  const res = await on.app.inject({ url: '/api/mytrips', headers: as(user) });
  expect(res.statusCode).toBe(200);
  return TripSummary.array().parse(res.json());
}

/** Nothing of the import anywhere: no trip of the user, none hidden, no upload, no object. */
async function expectNothingCreated(user: string, on: Harness = h) {
  expect(await myTrips(user, on)).toEqual([]);
  const trips = on.db.collection('trips');
  expect(await trips.countDocuments({ ownerId: user })).toBe(0);
  expect(await trips.countDocuments({ ownerId: /^import:/ })).toBe(0);
  expect(await on.db.collection('pending_uploads').countDocuments({ ownerId: user })).toBe(0);
  expect(await on.photos.list()).toEqual([]);
}

/**
 * A refusal for a limit: 413 `import_limit` with `message`, having cost this process (trips
 * runs in it) at most `cpuMs` of CPU: CPU time rather than wall time, which the shared
 * machine's load stretches several times.
 */
async function refusedForLimit(
  file: Buffer,
  filename: string,
  message: string,
  options: { on?: Harness; cpuMs?: number } = {},
) {
  const user = newUserId();
  const cpu = process.cpuUsage();
  const res = await postImport(user, file, filename, { on: options.on });
  const used = process.cpuUsage(cpu);
  expect(res.statusCode, res.body).toBe(413);
  expect(res.json()).toEqual({ error: ImportErrors.limit, message });
  expect((used.user + used.system) / 1000).toBeLessThan(options.cpuMs ?? 3_000);
  await expectNothingCreated(user, options.on);
}

/** A GeoJSON FeatureCollection of `n` Points. */
const geojson = (n: number, name = 'Many places') =>
  Buffer.from(
    JSON.stringify({
      type: 'FeatureCollection',
      name,
      features: Array.from({ length: n }, (_, i) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [(i % 360) - 179.5, (i % 170) - 84.5] },
        properties: { name: `P${i}`, date: '2024-05-01' },
      })),
    }),
  );

/** A GPX of `n` waypoints (the finding's 3.9 MB GPX had 4,000 of them). */
const gpxWaypoints = (n: number) =>
  Buffer.from(
    `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">` +
      Array.from(
        { length: n },
        (_, i) =>
          `<wpt lat="${(i % 170) - 84.5}" lon="${(i % 360) - 179.5}"><name>W${i}</name><time>2024-05-01T10:00:00Z</time></wpt>`,
      ).join('') +
      '</gpx>',
  );

describe('POST /api/import: each of ImportLimits refuses up front, naming it, nothing created', () => {
  it(`trips: a Polarsteps export of ${ImportLimits.tripsMax + 1} trips`, async () => {
    const zip = await polarstepsZip(
      Array.from({ length: ImportLimits.tripsMax + 1 }, (_, t) => ({
        name: `T${t}`,
        steps: [{ name: 'Here', lat: 10, lon: 10, photos: [] }],
      })),
    );
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.tooManyTrips);
  });

  it('at the limits: 2,000 places, split into 100 trips of 20, are imported', async () => {
    // exactly the places' and the trips' limits (one place more is refused, below)
    const geo = geojson(ImportLimits.destinationsMax);
    const user = newUserId();
    const res = await postImport(user, geo, 'places.geojson');
    expect(res.statusCode, res.body).toBe(201);
    expect(ImportResult.parse(res.json()).trips).toHaveLength(ImportLimits.tripsMax);
  }, 60_000);

  it(`destinations: ${ImportLimits.destinationsMax + 1} places in a GPX, a GeoJSON, a Polarsteps trip`, async () => {
    await refusedForLimit(
      gpxWaypoints(ImportLimits.destinationsMax + 1),
      'w.gpx',
      ImportMessages.tooManyDestinations,
    );
    await refusedForLimit(
      geojson(ImportLimits.destinationsMax + 1),
      'p.geojson',
      ImportMessages.tooManyDestinations,
    );
    // the finding's 1.2 MB ZIP of 100k steps: refused once its trip.json is read, before any
    // step is
    const steps = Array.from({ length: 100_000 }, (_, i) => ({
      id: i,
      name: 'x',
      start_time: 1717200000,
      location: { lat: 1, lon: 1 },
    }));
    const zip = await zipBuffer([
      {
        name: 'trip/Huge_1/trip.json',
        data: Buffer.from(JSON.stringify({ name: 'Huge', all_steps: steps })),
      },
    ]);
    expect(zip.length).toBeLessThan(2 * 1024 * 1024);
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.tooManyDestinations);
  });

  it(`photos: ${ImportLimits.photosMax + 10} photos in a Polarsteps export (before any is decoded)`, async () => {
    const photo = await jpegWithGps({ width: 16, height: 16 });
    const zip = await polarstepsZip([
      {
        name: 'Photos',
        steps: Array.from({ length: (ImportLimits.photosMax + 10) / 10 }, (_, s) => ({
          name: `S${s}`,
          lat: 10,
          lon: 10 + s / 100,
          photos: Array.from({ length: 10 }, () => photo),
        })),
      },
    ]);
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.tooManyPhotos);
  });

  it(`decompressed bytes: JSON past ${ImportLimits.documentsMaxBytes / 1024 / 1024} MB in all (blank-padded documents)`, async () => {
    // the finding's archive: documents of 1 MiB of blanks around a trip (each under the ZIP
    // bomb ratio's threshold), many of them; it cost 11 s of CPU before its 400
    const padded = (i: number) =>
      Buffer.concat([
        Buffer.from(`{"name":"T${i}","all_steps":[]`),
        Buffer.alloc(1024 * 1024 - 64, 0x20),
        Buffer.from('}'),
      ]);
    const count = ImportLimits.documentsMaxBytes / (1024 * 1024) + 6;
    expect(count).toBeLessThanOrEqual(ImportLimits.tripsMax);
    const zip = await zipBuffer(
      Array.from({ length: count }, (_, i) => ({ name: `trip/T_${i}/trip.json`, data: padded(i) })),
    );
    expect(zip.length).toBeLessThan(2 * 1024 * 1024);
    // 64 MiB inflated and parsed (the 1,000 of the finding: 11 s of CPU)
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.documentsTooLarge, {
      cpuMs: 4_000,
    });
  });

  it('decompressed bytes: more trip files than trips an import may create are refused unread', async () => {
    // 1,000 documents (the finding's count), refused from the archive's listing alone
    const zip = await zipBuffer(
      Array.from({ length: 1000 }, (_, i) => ({
        name: `trip/T_${i}/trip.json`,
        data: Buffer.alloc(4096, 0x20),
      })),
    );
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.tooManyTrips, { cpuMs: 1_000 });
  });

  it('reading time: past IMPORT_READ_TIMEOUT_MS (1 ms on this instance)', async () => {
    const zip = await polarstepsZip(
      Array.from({ length: 3 }, (_, t) => ({
        name: `T${t}`,
        steps: [{ name: 'Here', lat: 10, lon: 10, photos: [] }],
      })),
    );
    await refusedForLimit(zip, 'user_data.zip', ImportMessages.tooSlow(1), { on: slow });
    expect(ImportMessages.tooSlow(ImportLimits.readMaxMs)).toMatch(/within 30 seconds/);
  });
});

describe('POST /api/import: the per-user rate limit', () => {
  it(`one import past ${ImportLimits.perUserPerHour} within an hour: 429 with Retry-After; a retry of a recorded key is answered`, async () => {
    const user = newUserId();
    const file = geojson(1, 'Rate');
    const firstKey = randomUUID();
    for (let i = 0; i < ImportLimits.perUserPerHour; i++) {
      const res = await postImport(user, file, 'r.geojson', {
        key: i === 0 ? firstKey : undefined,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await postImport(user, file, 'r.geojson', { key: randomUUID() });
    expect(refused.statusCode).toBe(429);
    const body = refused.json<{ error: string; message: string }>();
    expect(body.error).toBe(ImportErrors.rate);
    expect(body.message).toMatch(
      new RegExp(
        `at most ${ImportLimits.perUserPerHour} in an hour\\. Try again in (59|60) minutes\\.`,
      ),
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await myTrips(user)).toHaveLength(ImportLimits.perUserPerHour);
    // a retry of the first import (its key) is not a new import: its answer, replayed
    const replay = await postImport(user, file, 'r.geojson', { key: firstKey });
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    // another user is not limited by it
    expect((await postImport(newUserId(), file, 'r.geojson')).statusCode).toBe(201);
    expect(await myTrips(user)).toHaveLength(ImportLimits.perUserPerHour);
  });
});

describe('POST /api/import: its Idempotency-Key', () => {
  it('a retry is answered the first result; the key with another file is a 422; a bad key 400', async () => {
    const user = newUserId();
    const key = randomUUID();
    const first = await postImport(user, geojson(3, 'Keyed'), 'k.geojson', { key });
    expect(first.statusCode, first.body).toBe(201);
    const again = await postImport(user, geojson(3, 'Keyed'), 'k.geojson', { key });
    expect(again.statusCode).toBe(201);
    expect(again.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await postImport(user, geojson(4, 'Other'), 'k.geojson', { key });
    expect(other.statusCode).toBe(422);
    expect(other.json<{ message: string }>().message).toBe(IdempotencyMessages.mismatch);
    const bad = await postImport(user, geojson(1), 'k.geojson', { key: 'not a key' });
    expect(bad.statusCode).toBe(400);
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('two requests with one key at once: one import, both answered it', async () => {
    const user = newUserId();
    const key = randomUUID();
    const photo = await jpegWithGps({ width: 400, height: 300 });
    const zip = await polarstepsZip(
      Array.from({ length: 3 }, (_, t) => ({
        name: `Twice ${t}`,
        steps: [{ name: 'Here', lat: 10, lon: 10, photos: [photo, photo] }],
      })),
    );
    const [a, b] = await Promise.all([
      postImport(user, zip, 'user_data.zip', { key }),
      postImport(user, zip, 'user_data.zip', { key }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json()).toEqual(b.json());
    expect([a, b].filter((r) => r.headers[IDEMPOTENT_REPLAY_HEADER] === 'true')).toHaveLength(1);
    expect(await myTrips(user)).toHaveLength(3);
  });

  it('a failed import frees its key: the retry runs again', async () => {
    const user = newUserId();
    const key = randomUUID();
    const refused = await postImport(user, Buffer.from('not a trip'), 'x.txt', { key });
    expect(refused.statusCode).toBe(400);
    const retried = await postImport(user, Buffer.from('not a trip'), 'x.txt', { key });
    expect(retried.statusCode).toBe(400);
    expect(retried.json<{ message: string }>().message).toBe(ImportMessages.unsupported);
  });
});
