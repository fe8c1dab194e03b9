import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExportArchive,
  ImportLimits,
  ImportMessages,
  ImportResult,
  Topics,
  Trip,
  TripSummary,
  type ExportedTrip,
} from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { jpegWithGps } from '@wayfarer/test-kit/images';
import { zipBuffer, zipFile } from '@wayfarer/test-kit/zip';
import { png, trackGpx } from '../fixtures';
import { renameEntry, zeroBomb } from '../import-zip';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

let h: Harness;
let tmp: string;
let photo1: Buffer;
let photo2: Buffer;
beforeAll(async () => {
  h = await startTrips();
  tmp = await mkdtemp(join(tmpdir(), 'wayfarer-import-test-'));
  [photo1, photo2] = await Promise.all([jpegWithGps(), jpegWithGps({ width: 300, height: 300 })]);
});
afterAll(async () => {
  await h?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/import', name));

/** What a test uploads: bytes, a file on disk, or generated chunks (never whole in memory). */
type Source = Buffer | { path: string } | { chunks: () => AsyncIterable<Buffer> };

/** A multipart body with one file part `file`, streamed unless it is small bytes. */
function importBody(source: Source, filename: string) {
  const boundary = `----wayfarer${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payload = Buffer.isBuffer(source)
    ? Buffer.concat([head, source, tail])
    : Readable.from(
        (async function* () {
          yield head;
          yield* 'path' in source ? createReadStream(source.path) : source.chunks();
          yield tail;
        })(),
      );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function postImport(user: string, source: Source, filename: string) {
  const body = importBody(source, filename);
  return h.app.inject({
    method: 'POST',
    url: '/api/import',
    payload: body.payload,
    headers: { ...body.headers, ...as(user) },
  });
}

async function imported(user: string, source: Source, filename: string) {
  const res = await postImport(user, source, filename);
  expect(res.statusCode, res.body).toBe(201);
  return ImportResult.parse(res.json());
}

async function myTrips(user: string): Promise<TripSummary[]> {
  const res = await h.app.inject({ url: '/api/mytrips', headers: as(user) });
  expect(res.statusCode).toBe(200);
  return TripSummary.array().parse(res.json());
}

async function fullTrip(user: string, id: string): Promise<Trip> {
  const res = await h.app.inject({ url: `/api/trips/${id}`, headers: as(user) });
  expect(res.statusCode).toBe(200);
  return Trip.parse(res.json());
}

/** Files of the service's spool this process holds open (Linux: /proc/self/fd). */
async function openSpoolFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(h.spool.dir));
}

/** Nothing of `user` anywhere: no trip (live or not) and no upload in progress. */
async function expectNothingCreated(user: string) {
  expect(await myTrips(user)).toEqual([]);
  expect(await h.db.collection('trips').countDocuments({ ownerId: user })).toBe(0);
  expect(await h.db.collection('pending_uploads').countDocuments({ ownerId: user })).toBe(0);
}

const shape = (trip: Trip) => ({
  name: trip.name,
  startDate: trip.startDate,
  endDate: trip.endDate,
  destinations: trip.destinations.map((d) => [
    d.name,
    d.startDate,
    d.endDate,
    d.latitude,
    d.longitude,
    d.photos.length,
  ]),
});

describe('POST /api/import: each format', () => {
  it('a GPX track over 3 days: one trip, a destination per day, in GET /api/mytrips', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('tmb-3-days.gpx'), 'tmb-3-days.gpx');
    expect(result).toMatchObject({
      format: 'gpx',
      message: 'Imported 1 trip.',
      skipped: { photos: 0, destinations: 0, trips: 0 },
    });
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Tour du Mont Blanc, days 1-3',
      startDate: '2024-07-08',
      endDate: '2024-07-10',
      destinations: [
        ['Day 1', '2024-07-08', '2024-07-08', 45.8906, 6.7985, 0],
        ['Notre-Dame de la Gorge', '2024-07-09', '2024-07-09', 45.7901, 6.7138, 0],
        ['Day 3', '2024-07-10', '2024-07-10', 45.6958, 6.7283, 0],
      ],
    });
    // as GET /api/trips/{id} answers it, and listed
    expect(await fullTrip(user, result.trips[0]!._id)).toEqual(result.trips[0]);
    expect((await myTrips(user)).map((t) => t._id)).toEqual([result.trips[0]!._id]);
  });

  it('a GPX of waypoints: a destination each', async () => {
    const user = newUserId();
    const today = new Date().toISOString().slice(0, 10);
    const { trips } = await imported(user, fixture('lisbon-waypoints.gpx'), 'lisbon.gpx');
    expect(trips[0]!.name).toBe('Lisbon favourites');
    expect(trips[0]!.destinations.map((d) => [d.name, d.startDate])).toEqual([
      ['Castelo de São Jorge', '2025-03-14'],
      ['Torre de Belém', today],
      ['Pastéis de Belém', today],
      ['Miradouro da Graça', today],
    ]);
    expect(trips[0]!.destinations[1]!.story).toBe('Go early: the queue is short before 10.');
  });

  it('a KML: Placemarks with Points, their dates and descriptions', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('japan-autumn.kml'), 'japan.kml');
    expect(result.skipped.destinations).toBe(1); // the LineString
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Japan in autumn',
      startDate: '2023-11-02',
      endDate: '2023-11-10',
      destinations: [
        ['Tokyo – Shinjuku', '2023-11-02', '2023-11-05', 35.689592, 139.700464, 0],
        ['Kyoto – Arashiyama', '2023-11-06', '2023-11-09', 35.009392, 135.672009, 0],
        ['Nara', '2023-11-10', '2023-11-10', 34.685087, 135.843056, 0],
      ],
    });
    expect(result.trips[0]!.destinations[0]!.story).toBe(
      'Arrived at Haneda.\nRamen at Fuunji, then the Omoide Yokocho alleys.',
    );
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a GeoJSON FeatureCollection of Points', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('iceland-ring-road.geojson'), 'x.json');
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Iceland ring road',
      startDate: '2022-06-18',
      endDate: '2022-06-21',
      destinations: [
        ['Reykjavík', '2022-06-18', '2022-06-19', 64.146582, -21.9424, 0],
        ['Vík í Mýrdal', '2022-06-20', '2022-06-20', 63.4186, -19.061, 0],
        ['Jökulsárlón', '2022-06-21', '2022-06-21', 64.0784, -16.1792, 0],
      ],
    });
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a Polarsteps export ZIP: steps as destinations, with their 2 photos', async () => {
    const user = newUserId();
    const dir = 'trip/Scotland by train_8123456';
    const zip = await zipBuffer([
      { name: `${dir}/trip.json`, data: fixture('polarsteps-trip.json') },
      { name: `${dir}/edinburgh_90000001/photos/3f2a9c.jpg`, data: photo1, compress: false },
      { name: `${dir}/portree_90000002/photos/8b1d07.jpg`, data: photo2, compress: false },
      { name: 'user/user.json', data: Buffer.from('{"first_name":"Ada"}') },
    ]);
    const result = await imported(user, zip, 'user_data.zip');
    expect(result).toMatchObject({ format: 'polarsteps', skipped: { destinations: 1 } });
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Scotland by train',
      startDate: '2024-06-01',
      endDate: '2024-06-06',
      destinations: [
        ['Edinburgh', '2024-06-01', '2024-06-03', 55.9533, -3.1883, 1],
        ['Glenfinnan', '2024-06-03', '2024-06-03', 56.8764, -5.4317, 0],
        ['Portree, Isle of Skye', '2024-06-04', '2024-06-06', 57.4129, -6.1961, 1],
      ],
    });
    // the photos are stored and served like any trip's
    const photoUrl = result.trips[0]!.destinations[0]!.photos[0]!;
    const served = await h.app.inject({ url: photoUrl, headers: as(user) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\//);
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a Wayfarer export ZIP: the same trips, visibility and photo counts', async () => {
    const user = newUserId();
    const root = ExportArchive.root;
    const trips: ExportedTrip[] = [
      {
        id: 'a1',
        name: 'Rome in spring',
        startDate: '2025-04-01',
        endDate: '2025-04-04',
        visibility: 'private',
        destinations: [
          {
            id: 'd1',
            name: 'Colosseum',
            latitude: 41.8902,
            longitude: 12.4922,
            startDate: '2025-04-01',
            endDate: '2025-04-02',
            story: 'Underground tour at 9.',
            photos: ['photos/a1/p1.jpg', 'photos/a1/p2.png'],
          },
          {
            id: 'd2',
            name: 'Trastevere',
            latitude: 41.8897,
            longitude: 12.4695,
            startDate: '2025-04-03',
            endDate: '2025-04-04',
            story: '',
            photos: [],
          },
        ],
      },
      {
        id: 'b2',
        name: 'Oslo',
        startDate: '2025-08-10',
        endDate: '2025-08-10',
        visibility: 'friends',
        destinations: [
          {
            id: 'd3',
            name: 'Opera house',
            latitude: 59.9075,
            longitude: 10.7531,
            startDate: '2025-08-10',
            endDate: '2025-08-10',
            story: 'Walked on the roof.',
            photos: ['photos/b2/p3.jpg'],
          },
        ],
      },
    ];
    const zip = await zipBuffer([
      {
        name: `${root}/manifest.json`,
        data: Buffer.from(
          JSON.stringify({
            format: 'wayfarer-export',
            version: 1,
            exportedAt: '2026-01-01T00:00:00Z',
          }),
        ),
      },
      { name: `${root}/trips.json`, data: Buffer.from(JSON.stringify(trips)) },
      { name: `${root}/photos/a1/p1.jpg`, data: photo1, compress: false },
      { name: `${root}/photos/a1/p2.png`, data: await png(), compress: false },
      { name: `${root}/photos/b2/p3.jpg`, data: photo2, compress: false },
    ]);
    const result = await imported(user, zip, 'wayfarer-export.zip');
    expect(result.format).toBe('wayfarer');
    expect(
      result.trips.map((t) => [t.name, t.visibility, t.destinations.map((d) => d.photos.length)]),
    ).toEqual([
      ['Rome in spring', 'private', [2, 0]],
      ['Oslo', 'friends', [1]],
    ]);
    expect(result.trips[0]!.destinations[0]).toMatchObject({
      name: 'Colosseum',
      story: 'Underground tour at 9.',
      startDate: '2025-04-01',
      endDate: '2025-04-02',
    });
    expect(await myTrips(user)).toHaveLength(2);
    // created through the create use case: each trip's trip.created on Kafka, as any create's
    const ids = result.trips.map((t) => t._id);
    const events = await waitForEvents<{
      type: string;
      aggregateId: string;
      payload: { ownerId: string; visibility?: string };
    }>(Topics.tripsTrip, (e) => e.type === 'trip.created' && ids.includes(e.aggregateId), {
      count: 2,
    });
    expect(
      events.map((e) => [e.aggregateId, e.payload.ownerId, e.payload.visibility]).sort(),
    ).toEqual(
      [
        [ids[0], user, 'private'],
        [ids[1], user, 'friends'],
      ].sort(),
    );
  });
});

describe('POST /api/import: refused with a 400, nothing created', () => {
  const refused = async (source: Source, filename: string, message: string | RegExp) => {
    const user = newUserId();
    const res = await postImport(user, source, filename);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ error: string; message: string }>();
    expect(body.error).toBeTruthy();
    expect(body.message).toMatch(message);
    await expectNothingCreated(user);
    return body;
  };

  it('a ZIP bomb: 1 GiB of zeros deflated to a few MB (refused by its ratio, never inflated)', async () => {
    const path = join(tmp, 'bomb.zip');
    await zeroBomb(path, 'trip/Bomb_1/trip.json', 1024 * 1024 * 1024);
    expect((await stat(path)).size).toBeLessThan(10 * 1024 * 1024);
    await refused({ path }, 'bomb.zip', /ZIP bomb|too large once uncompressed/);
  });

  it('an entry whose header lies about its size: caught while inflating', async () => {
    // trip.json says 3 bytes... and inflates to 2 MiB of JSON whitespace: the header is patched
    const real = Buffer.concat([
      Buffer.from('{"name":"x","all_steps":[]'),
      Buffer.alloc(2 << 20, 0x20),
      Buffer.from('}'),
    ]);
    const zip = await zipBuffer([{ name: 'trip/Lie_1/trip.json', data: real }]);
    // patch the uncompressed size (local header at 22, central directory entry at 24)
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(3, central + 24);
    await refused(zip, 'lie.zip', /could not be read|inflates past/);
    // the archive's file is closed again (yauzl keeps it open while an entry is being read)
    await expect.poll(() => openSpoolFiles()).toEqual([]);
  });

  it('a path traversal entry (../), an absolute one, a backslash', async () => {
    const base = await zipBuffer([
      { name: 'trip/Tr_1/trip.json', data: fixture('polarsteps-trip.json') },
      { name: 'xx/xx/evil.sh', data: Buffer.from('#!/bin/sh\n') },
    ]);
    await refused(
      renameEntry(base, 'xx/xx/evil.sh', '../../evil.sh'),
      'a.zip',
      /ZIP archive was refused/,
    );
    await refused(
      renameEntry(base, 'xx/xx/evil.sh', '/xx/evilxx.sh'),
      'a.zip',
      /ZIP archive was refused/,
    );
    await refused(
      renameEntry(base, 'xx/xx/evil.sh', 'xx\\..\\evil.sh'),
      'a.zip',
      /ZIP archive was refused/,
    );
  });

  it('an XML entity bomb (billion laughs), and an external entity', async () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE gpx [',
      ' <!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`,
      ),
      ']>',
      '<gpx version="1.1"><wpt lat="1" lon="1"><name>&lol9;</name></wpt></gpx>',
    ].join('\n');
    await refused(Buffer.from(lol), 'lol.gpx', ImportMessages.xmlDeclarations);
    const xxe = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Document><Placemark><name>&x;</name><Point><coordinates>1,1</coordinates></Point></Placemark></Document></kml>`;
    await refused(Buffer.from(xxe), 'x.kml', ImportMessages.xmlDeclarations);
  });

  it('a text file, an image, an empty file, a ZIP of something else', async () => {
    const body = await refused(
      Buffer.from('Day 1: Paris\nDay 2: Lyon\n'),
      'notes.txt',
      ImportMessages.unsupported,
    );
    expect(body.message).toMatch(/GPX, KML or GeoJSON.*Polarsteps.*Wayfarer/);
    await refused(photo1, 'photo.jpg', ImportMessages.unsupported);
    await refused(Buffer.alloc(0), 'empty.gpx', ImportMessages.empty);
    const other = await zipBuffer([{ name: 'report.docx', data: Buffer.from('not a trip') }]);
    await refused(other, 'other.zip', ImportMessages.unsupported);
  });

  it('a photo the image pipeline refuses: the trips made before it are deleted again', async () => {
    const user = newUserId();
    const trip = (name: string, stepId: number) =>
      Buffer.from(
        JSON.stringify({
          name,
          all_steps: [
            {
              id: stepId,
              name: `${name} step`,
              start_time: 1717236000,
              location: { lat: 55.95, lon: -3.19 },
            },
          ],
        }),
      );
    // JPEG's first bytes (the sniff takes it), then nothing an image decoder can read
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(400)]);
    const zip = await zipBuffer([
      { name: 'trip/A_1/trip.json', data: trip('First', 11) },
      { name: 'trip/A_1/step_11/photos/fine.jpg', data: photo1, compress: false },
      { name: 'trip/B_2/trip.json', data: trip('Second', 22) },
      { name: 'trip/B_2/step_22/photos/broken.jpg', data: broken, compress: false },
    ]);
    const res = await postImport(user, zip, 'export.zip');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'photo ("broken.jpg") could not be read as an image.',
    );
    // the first trip was created, then deleted: gone from the list at once, its document
    // removed by the relay once trip.deleted is out, its photo's objects removed
    expect(await myTrips(user)).toEqual([]);
    await expect
      .poll(() => h.db.collection('trips').countDocuments({ ownerId: user }), { timeout: 20_000 })
      .toBe(0);
    expect(await h.db.collection('pending_uploads').countDocuments({ ownerId: user })).toBe(0);
  });

  it('no file part, or not multipart at all', async () => {
    const user = newUserId();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/import',
      payload: { file: 'x' },
      headers: as(user),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json<{ message: string }>().message).toBe(ImportMessages.notMultipart);
    await expectNothingCreated(user);
  });
});

describe('POST /api/import: the size limit', () => {
  it('a file over ImportLimits.fileMaxBytes: 413 as it streams, nothing created', async () => {
    const user = newUserId();
    const chunk = Buffer.alloc(1024 * 1024);
    const res = await postImport(
      user,
      {
        chunks: async function* () {
          yield Buffer.from('PK\u0003\u0004');
          for (let i = 0; i <= ImportLimits.fileMaxBytes / chunk.length; i++) yield chunk;
        },
      },
      'big.zip',
    );
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBe(ImportMessages.fileTooLarge);
    await expectNothingCreated(user);
  });
});

describe('POST /api/import: a large archive streams', () => {
  it('a 20 MB Polarsteps ZIP (mostly stored video entries it never reads) is imported', async () => {
    const user = newUserId();
    const path = join(tmp, 'large.zip');
    const dir = 'trip/Big_42';
    await zipFile(path, [
      { name: `${dir}/trip.json`, data: () => fixture('polarsteps-trip.json') },
      { name: `${dir}/edinburgh_90000001/photos/a.jpg`, data: () => photo1, compress: false },
      ...Array.from({ length: 6 }, (_, i) => ({
        name: `${dir}/portree_90000002/videos/clip-${i}.mp4`,
        data: () => randomBytes(3 * 1024 * 1024),
        compress: false,
      })),
    ]);
    expect((await stat(path)).size).toBeGreaterThan(18 * 1024 * 1024);
    const result = await imported(user, { path }, 'large.zip');
    expect(result.trips[0]!.destinations.map((d) => d.photos.length)).toEqual([1, 0, 0]);
    // the request's spool directory (the upload, the photos taken out) is gone (the display
    // variants, made after the answer, spool too: once they are done)
    await h.variants.idle();
    expect(await readdir(h.spool.dir)).toEqual([]);
    expect(await openSpoolFiles()).toEqual([]);
  });
});

describe('POST /api/import: a large GPX is parsed off the event loop', () => {
  /** Whether the request's whole upload (`bytes`) is spooled: the import is past reading it. */
  const uploadSpooled = async (bytes: number) => {
    for (const entry of await readdir(h.spool.dir, { recursive: true, withFileTypes: true })) {
      if (entry.name !== 'upload') continue;
      const size = await stat(join(entry.parentPath, entry.name)).then(
        (s) => s.size,
        () => 0,
      );
      if (size === bytes) return true;
    }
    return false;
  };

  it('other users get answers while a ~3.5 MiB GPX is parsed (its trip not yet made)', async () => {
    const owner = newUserId();
    const other = newUserId();
    const gpx = trackGpx(42_000);
    expect(gpx.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(gpx.length).toBeLessThanOrEqual(ImportLimits.xmlMaxBytes);
    let settled = false;
    const importing = postImport(owner, gpx, 'big.gpx').finally(() => {
      settled = true;
    });
    // answers to another user's list, each asked once the upload is spooled (its reading, then
    // the parse) and answered before the import made its trip. Parsed on the event loop, the
    // import answered 2 such (while it read the upload), then none for the whole parse
    const wanted = 10;
    let answeredMeanwhile = 0;
    while (!settled && answeredMeanwhile < wanted) {
      const spooled = await uploadSpooled(gpx.length);
      expect((await myTrips(other)).length).toBe(0);
      const made = await h.db.collection('trips').countDocuments({ ownerId: owner });
      if (spooled && made === 0) answeredMeanwhile++;
    }
    const res = await importing;
    expect(res.statusCode, res.body).toBe(201);
    expect(answeredMeanwhile).toBe(wanted);
    // 42,000 points a minute apart: 30 days, a destination each (in two trips of at most
    // TripLimits.destinationsMax)
    const { trips } = ImportResult.parse(res.json());
    expect(trips.map((t) => t.destinations.length)).toEqual([20, 10]);
  });
});

describe('the round trip: GET /api/export, then POST /api/import into another account', () => {
  it('gives the same trips, destinations and photo counts', async () => {
    const owner = newUserId();
    const made = await postTrip(
      h.app,
      owner,
      tripFields({ name: 'Lofoten', startDate: '2025-06-01', endDate: '2025-06-05' }, [
        {
          name: 'Reine',
          latitude: '67.9326',
          longitude: '13.0888',
          startDate: '2025-06-01',
          endDate: '2025-06-03',
          story: 'Reinebringen at midnight.',
        },
        { name: 'Henningsvær', latitude: '68.1527', longitude: '14.2062' },
      ]),
      [
        { field: 'photos[0]', data: photo1, filename: 'a.jpg', type: 'image/jpeg' },
        { field: 'photos[0]', data: photo2, filename: 'b.jpg', type: 'image/jpeg' },
        { field: 'photos[1]', data: await png(), filename: 'c.png', type: 'image/png' },
      ],
    );
    expect(made.statusCode, made.body).toBe(201);
    await h.variants.idle();
    const exported = await h.app.inject({ url: '/api/export', headers: as(owner) });
    expect(exported.statusCode).toBe(200);

    const other = newUserId();
    const result = await imported(other, exported.rawPayload, 'wayfarer-export.zip');
    expect(result.format).toBe('wayfarer');
    const original = await fullTrip(owner, made.json<Trip>()._id);
    expect(result.trips.map(shape)).toEqual([shape(original)]);
    expect(result.trips[0]!.destinations[0]!.story).toBe('Reinebringen at midnight.');
    expect(result.trips[0]!.visibility).toBe(original.visibility);
    expect(await myTrips(other)).toHaveLength(1);
  });
});
