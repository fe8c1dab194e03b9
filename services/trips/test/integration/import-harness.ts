import { randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { ImportResult, Trip, TripSummary } from '@wayfarer/contracts';
import { jpegWithGps } from '@wayfarer/test-kit/images';
import { as, startTrips, type Harness } from './harness';

export let h: Harness;
export let tmp: string;
export let photo1: Buffer;
export let photo2: Buffer;

export const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/import', name));

/** What a test uploads: bytes, a file on disk, or generated chunks (never whole in memory). */
export type Source = Buffer | { path: string } | { chunks: () => AsyncIterable<Buffer> };

/** A multipart body with one file part `file`, streamed unless it is small bytes. */
export function importBody(source: Source, filename: string) {
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

export async function postImport(user: string, source: Source, filename: string) {
  const body = importBody(source, filename);
  return h.app.inject({
    method: 'POST',
    url: '/api/import',
    payload: body.payload,
    headers: { ...body.headers, ...as(user) },
  });
}

export async function imported(user: string, source: Source, filename: string) {
  const res = await postImport(user, source, filename);
  expect(res.statusCode, res.body).toBe(201);
  return ImportResult.parse(res.json());
}

export async function myTrips(user: string): Promise<TripSummary[]> {
  const res = await h.app.inject({ url: '/api/mytrips', headers: as(user) });
  expect(res.statusCode).toBe(200);
  return TripSummary.array().parse(res.json());
}

export async function fullTrip(user: string, id: string): Promise<Trip> {
  const res = await h.app.inject({ url: `/api/trips/${id}`, headers: as(user) });
  expect(res.statusCode).toBe(200);
  return Trip.parse(res.json());
}

/** Files of the service's spool this process holds open (Linux: /proc/self/fd). */
export async function openSpoolFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(h.spool.dir));
}

/** Nothing of `user` anywhere: no trip (live or not) and no upload in progress. */
export async function expectNothingCreated(user: string) {
  expect(await myTrips(user)).toEqual([]);
  expect(await h.db.collection('trips').countDocuments({ ownerId: user })).toBe(0);
  expect(await h.db.collection('pending_uploads').countDocuments({ ownerId: user })).toBe(0);
}

export const shape = (trip: Trip) => ({
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

/** Boots trips for the test file that calls it (once, before its tests), and closes it after. */
export function useImportHarness(): void {
  beforeAll(async () => {
    h = await startTrips();
    tmp = await mkdtemp(join(tmpdir(), 'wayfarer-import-test-'));
    [photo1, photo2] = await Promise.all([jpegWithGps(), jpegWithGps({ width: 300, height: 300 })]);
  });
  afterAll(async () => {
    await h?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });
}
