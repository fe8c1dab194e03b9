import { buffer } from 'node:stream/consumers';
import { describe, expect, inject, it } from 'vitest';
import {
  ExportArchive,
  ExportAreaDocument,
  ExportAreas,
  ExportedTrip,
  ExportManifest,
  TripExportFormats,
} from '@wayfarer/contracts';
import { testS3Client } from '@wayfarer/test-kit';
import { unzipEntries } from '@wayfarer/test-kit/zip';
import { befriend, json, register, say, type KnownAccount } from '../support/account';
import { api, createTrip, withServiceDown, type TripSummary } from '../support/api';
import { makePng } from '../support/browser';

/**
 * The account export through the whole stack: a user with two trips (photos), a journal
 * entry, a bucket list with an itinerary, a friend and messages downloads GET /api/export
 * through the gateway; the ZIP, read by yauzl (an independent reader, every CRC checked), holds
 * every area as its owner answers it, every original photo byte for byte as MinIO stores it,
 * each trip's files as the per-trip route makes them, and nothing of another user's. With
 * journal stopped, the archive still completes and names journal as missing.
 */

const poll = { timeout: 30_000, interval: 250 };
// the journal's first trip.created after the stack starts can take its consumer a while
const journalPoll = { timeout: 90_000, interval: 500 };

/** Every entry of a ZIP by its path under the archive's root (test-kit: yauzl). */
async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const prefix = `${ExportArchive.root}/`;
  const entries = new Map<string, Buffer>();
  for (const [name, bytes] of await unzipEntries(zip)) {
    expect(name.startsWith(prefix), name).toBe(true);
    entries.set(name.slice(prefix.length), bytes);
  }
  return entries;
}

async function download(account: KnownAccount): Promise<Map<string, Buffer>> {
  const res = await api('/api/export', account);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="wayfarer-export-\d{4}-\d{2}-\d{2}\.zip"$/,
  );
  return unzip(Buffer.from(await res.arrayBuffer()));
}

const jsonOf = (files: Map<string, Buffer>, path: string): unknown =>
  JSON.parse(files.get(path)?.toString() ?? 'null');
const area = (files: Map<string, Buffer>, name: string) =>
  ExportAreaDocument.parse(jsonOf(files, `${name}.json`));

function photosBucket() {
  const minio = testS3Client();
  const bucket = `photos-${inject('namespace')}`;
  return async (key: string) => buffer(await minio.getObject(bucket, key));
}

describe('GET /api/export', () => {
  it(
    "downloads every area of the user's data and every original photo, nothing of anyone else",
    { timeout: 240_000 },
    async () => {
      const ada = await register('Ada Exporting', makePng(48));
      const bob = await register('Bob Friend');
      const cat = await register('Cat Stranger');
      await befriend(ada, bob);
      await befriend(bob, cat);
      const lisbon = await createTrip(
        ada,
        'Portugal',
        [
          ['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04'],
          ['Porto, Portugal', '41.15', '-8.61', '2026-04-05', '2026-04-07'],
        ],
        'Trams and hills.',
      );
      const kyoto = await createTrip(
        ada,
        'Japan',
        [['Kyoto, Japan', '35.01', '135.77', '2026-06-01', '2026-06-05']],
        'Temples.',
        2,
      );
      const cats = await createTrip(cat, 'Cat in Oslo', [
        ['Oslo, Norway', '59.91', '10.75', '2026-03-01', '2026-03-02'],
      ]);
      const write = async (who: KnownAccount, trip: TripSummary, content: string) => {
        const destinationId = trip.destinations[0]!._id;
        await expect
          .poll(async () => (await api(`/api/journal/${destinationId}`, who)).status, journalPoll)
          .toBe(200);
        const res = await api('/api/journal', who, {
          method: 'POST',
          ...json({ destinationId, content, date: '2026-04-02T09:00:00.000Z' }),
        });
        expect(res.status).toBe(200);
      };
      await write(ada, lisbon, 'Pastéis de nata.');
      await write(cat, cats, 'A secret of Cat.');
      const place = await api('/api/bucketlist', ada, {
        method: 'POST',
        ...json({ place: 'Reykjavik', latitude: 64.15, longitude: -21.94, isVisited: false }),
      });
      expect(place.status).toBe(201);
      const { data: item } = (await place.json()) as { data: { _id: string } };
      const saved = await api('/api/itinerary', ada, {
        method: 'POST',
        ...json({ bucketListId: item._id, itinerary: ['Blue Lagoon', 'Hallgrímskirkja'] }),
      });
      expect(saved.status).toBe(200);
      await api('/api/bucketlist', cat, {
        method: 'POST',
        ...json({ place: 'Cat place', latitude: 1, longitude: 2, isVisited: false }),
      });
      await say(ada, bob, 'Hello Bob');
      await say(bob, ada, 'Hello Ada');
      await say(bob, cat, 'Only for Cat');

      // chat names Bob once auth's registration reached it: wait for the export to say so
      let files = new Map<string, Buffer>();
      await expect
        .poll(async () => {
          files = await download(ada);
          const messages = area(files, 'messages').items as { otherName: string }[];
          return messages.map((m) => m.otherName);
        }, poll)
        .toEqual(['Bob Friend', 'Bob Friend']);

      const manifest = ExportManifest.parse(jsonOf(files, ExportArchive.manifest));
      expect(manifest).toMatchObject({ format: ExportArchive.format, missingAreas: [] });

      expect(area(files, 'profile')).toEqual({
        area: 'profile',
        items: [
          {
            id: ada.userId,
            name: 'Ada Exporting',
            email: ada.email,
            createdAt: expect.any(String),
            profilePicture: expect.stringMatching(new RegExp(`^/api/avatars/${ada.userId}/`)),
          },
        ],
      });
      expect(area(files, 'journal').items).toEqual([
        {
          destinationId: lisbon.destinations[0]!._id,
          content: 'Pastéis de nata.',
          date: '2026-04-02T09:00:00.000Z',
          updatedAt: expect.any(String),
        },
      ]);
      expect(area(files, 'bucketlist').items).toEqual([
        {
          _id: item._id,
          place: 'Reykjavik',
          latitude: 64.15,
          longitude: -21.94,
          isVisited: false,
          itinerary: ['Blue Lagoon', 'Hallgrímskirkja'],
        },
      ]);
      expect(area(files, 'friends').items).toEqual([
        { id: bob.userId, name: 'Bob Friend', since: expect.any(String) },
      ]);
      expect(area(files, 'messages').items).toEqual([
        {
          id: expect.any(String),
          direction: 'sent',
          otherId: bob.userId,
          otherName: 'Bob Friend',
          content: 'Hello Bob',
          timestamp: expect.any(String),
        },
        {
          id: expect.any(String),
          direction: 'received',
          otherId: bob.userId,
          otherName: 'Bob Friend',
          content: 'Hello Ada',
          timestamp: expect.any(String),
        },
      ]);

      // the trips, newest first, and every original photo as MinIO holds it
      const trips = ExportedTrip.array().parse(jsonOf(files, ExportArchive.trips));
      expect(trips.map((t) => [t.id, t.name])).toEqual([
        [kyoto._id, 'Japan'],
        [lisbon._id, 'Portugal'],
      ]);
      const original = photosBucket();
      const photoPaths = trips.flatMap((t) => t.destinations.flatMap((d) => d.photos));
      expect(photoPaths).toHaveLength(4);
      for (const path of photoPaths) {
        const m = /^photos\/([^/]+)\/([^/.]+)\.(\w+)$/.exec(path);
        expect(m, path).not.toBeNull();
        const [, tripId, photoId, ext] = m!;
        const stored = await original(`${tripId}/${photoId}/original.${ext}`);
        expect(files.get(path)?.equals(stored), path).toBe(true);
      }
      // each trip's files, as the per-trip route gives them (the ICS stamps its own time)
      for (const trip of trips) {
        for (const format of TripExportFormats) {
          const file = files.get(`trips/${trip.id}/trip.${format}`)?.toString();
          expect(file, `${trip.id} ${format}`).toBeDefined();
          const res = await api(`/api/trips/${trip.id}/export.${format}`, ada);
          expect(res.status).toBe(200);
          if (format === 'ics') {
            for (const d of trip.destinations) expect(file).toContain(d.name.split(',')[0]);
          } else {
            expect(file).toBe(await res.text());
          }
        }
      }
      const expected = new Set([
        ExportArchive.manifest,
        ExportArchive.trips,
        ...ExportAreas.map((a) => `${a}.json`),
        ...photoPaths,
        ...trips.flatMap((t) => TripExportFormats.map((f) => `trips/${t.id}/trip.${f}`)),
      ]);
      expect(new Set(files.keys())).toEqual(expected);

      // nothing of Cat's, in any entry
      const text = [...files.values()].map((b) => b.toString('latin1')).join('\n');
      for (const theirs of [cat.userId, cat.email, cats._id, 'Cat place', 'secret', 'Only for']) {
        expect(text.includes(theirs), theirs).toBe(false);
      }

      // journal down: the archive completes without it and says so
      await withServiceDown('journal', async () => {
        const partial = await download(ada);
        const partialManifest = ExportManifest.parse(jsonOf(partial, ExportArchive.manifest));
        expect(partialManifest.missingAreas).toEqual(['journal']);
        expect(partial.has('journal.json')).toBe(false);
        expect(partial.has('profile.json')).toBe(true);
        expect(partial.get(photoPaths[0]!)?.equals(files.get(photoPaths[0]!)!)).toBe(true);
      });
    },
  );

  it('is refused to nobody', async () => {
    expect((await api('/api/export')).status).toBe(401);
  });
});
