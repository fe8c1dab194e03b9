import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trip } from '@wayfarer/contracts';
import { ImportLimits, ImportMessages, ImportResult } from '@wayfarer/contracts';
import { zipBuffer, zipFile } from '@wayfarer/test-kit/zip';
import { png, trackGpx } from '../fixtures';
import { renameEntry, zeroBomb } from '../import-zip';
import { as, newUserId, postTrip, tripFields } from './harness';
import {
  useImportHarness,
  expectNothingCreated,
  fixture,
  fullTrip,
  h,
  imported,
  myTrips,
  openSpoolFiles,
  photo1,
  photo2,
  postImport,
  shape,
  type Source,
  tmp,
} from './import-harness';

useImportHarness();

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
