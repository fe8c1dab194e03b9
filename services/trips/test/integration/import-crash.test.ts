import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  ImportResult,
  Topics,
  TripSummary,
} from '@wayfarer/contracts';
import { gatewayHeaders, waitForEvents } from '@wayfarer/test-kit';
import type { ImportDoc } from '../../src/store/imports';
import type { PendingUploadDoc } from '../../src/store/pending-uploads';
import { largeJpeg } from '../fixtures';
import { polarstepsZip } from '../import-zip';
import { newUserId } from './harness';
import { db, env, photos, procs, tripDocs, useCrashWorld } from './crash-world';
import { startTripsProcess } from './process';

/**
 * An import is one unit and its retry never a second copy. Here trips runs
 * as a real process, is SIGKILLed once the import's first trip is in MongoDB, is started again,
 * and the same file is sent again with the same `Idempotency-Key` (what the import screen
 * does): exactly the 8 trips, never any of them listed before all are, and no photo object
 * left of the killed attempt once the sweepers have run. Short leases (`IMPORT_LEASE_MS`,
 * `UPLOAD_LEASE_MS`) so the dead attempt's expire within the test.
 */
const LEASE_MS = 2000;
const TRIPS = 8;
const PHOTOS_PER_TRIP = 12;

useCrashWorld('trips-import-crash-spool-', {
  UPLOAD_LEASE_MS: String(LEASE_MS),
  IMPORT_LEASE_MS: String(LEASE_MS),
});

/** The bucket's objects whose trip is not one of `trips` (by the key's first segment). */
async function objectsOutside(trips: readonly string[]): Promise<string[]> {
  const keep = new Set(trips);
  return (await photos.list()).filter((key) => !keep.has(key.split('/')[0]!));
}

function importBody(zip: Buffer) {
  const boundary = `----wayfarer${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="user_data.zip"\r\n` +
        `Content-Type: application/zip\r\n\r\n`,
    ),
    zip,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postImport(url: string, user: string, zip: Buffer, key: string) {
  const body = importBody(zip);
  const res = await fetch(`${url}/api/import`, {
    method: 'POST',
    headers: {
      'content-type': body.contentType,
      [IDEMPOTENCY_KEY_HEADER]: key,
      ...gatewayHeaders('POST', '/api/import', { userId: user }),
    },
    body: body.payload,
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

async function myTrips(url: string, user: string): Promise<TripSummary[]> {
  const res = await fetch(`${url}/api/mytrips`, {
    headers: gatewayHeaders('GET', '/api/mytrips', { userId: user }),
  });
  expect(res.status).toBe(200);
  return TripSummary.array().parse(await res.json());
}

/**
 * Reads the user's list every 50 ms until `stop()`; returns every length it saw. A process
 * being killed or started answers nothing for a while: those reads are skipped.
 */
function watchList(url: () => string, user: string) {
  const seen: number[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const list = await myTrips(url(), user).catch(() => null);
      if (list) seen.push(list.length);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

describe('an import killed midway, then retried with its Idempotency-Key', () => {
  it('SIGKILL after its first trip, restart, retry: exactly the 8 trips, nothing partial, no orphan photo', async () => {
    const user = newUserId();
    const key = randomUUID();
    const photo = await largeJpeg(1600, 1067);
    const names = Array.from({ length: TRIPS }, (_, t) => `Crash trip ${t + 1}`);
    const zip = await polarstepsZip(
      names.map((name, t) => ({
        name,
        steps: [0, 1].map((s) => ({
          name: `Stop ${t + 1}.${s + 1}`,
          lat: 45 + t,
          lon: 5 + s,
          photos: Array.from({ length: PHOTOS_PER_TRIP / 2 }, () => photo),
        })),
      })),
    );

    const first = await startTripsProcess(env);
    procs.push(first);
    let current = first.url;
    const list = watchList(() => current, user);

    // the import runs; once its first trip is in MongoDB (hidden), trips is killed
    const killed = postImport(first.url, user, zip, key).catch((err: unknown) => err);
    await vi.waitFor(
      async () => expect(await db().collection('trips').countDocuments({})).toBeGreaterThan(0),
      { timeout: 60_000, interval: 20 },
    );
    first.child.kill('SIGKILL');
    await vi.waitFor(() => expect(first.exited()).toBe(true));
    const answer = await killed;
    // no answer (the connection died with it); through the gateway, a 502
    expect(answer).toBeInstanceOf(Error);

    // midway: some trips written, not all; none of them the user's (hidden under the import)
    const left = await tripDocs();
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(TRIPS);
    expect(left.filter((t) => t.ownerId === user)).toEqual([]);
    const leftIds = left.map((t) => t._id);
    expect(await objectsOutside([])).not.toEqual([]);

    const second = await startTripsProcess(env);
    procs.push(second);
    current = second.url;
    // after the restart, before any retry: nothing of the killed import is listed
    expect(await myTrips(second.url, user)).toEqual([]);

    // the retry (same file, same key): waits for the dead attempt's lease, takes it over
    const retried = await postImport(second.url, user, zip, key);
    expect(retried.status, retried.body).toBe(201);
    const result = ImportResult.parse(JSON.parse(retried.body));
    expect(result.message).toBe('Imported 8 trips.');
    expect(result.trips.map((t) => t.name).sort()).toEqual([...names].sort());
    expect(result.trips.map((t) => t.destinations.flatMap((d) => d.photos).length)).toEqual(
      Array.from({ length: TRIPS }, () => PHOTOS_PER_TRIP),
    );
    const ids = result.trips.map((t) => t._id);
    // none of the killed attempt's trips is one of them
    expect(ids.filter((id) => leftIds.includes(id))).toEqual([]);

    // exactly the 8 trips, each once
    const listed = await myTrips(second.url, user);
    expect(listed.map((t) => t._id).sort()).toEqual([...ids].sort());

    // the same retry again: the first answer, replayed; still 8 trips
    const again = await postImport(second.url, user, zip, key);
    expect(again.status).toBe(201);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect(JSON.parse(again.body)).toEqual(JSON.parse(retried.body));
    expect(await myTrips(second.url, user)).toHaveLength(TRIPS);

    // the list never showed part of an import: nothing, then all 8
    await list.stop();
    expect(list.seen.length).toBeGreaterThan(0);
    expect(list.seen.filter((n) => n !== 0 && n !== TRIPS)).toEqual([]);

    // once the sweepers ran: no trip document but the 8, no photo object outside them (the
    // killed attempt's trips and the photos of the one it was uploading are gone), no pending
    // record, every import record finished
    await vi.waitFor(
      async () => {
        expect((await tripDocs()).map((t) => t._id).sort()).toEqual([...ids].sort());
        expect(await objectsOutside(ids)).toEqual([]);
        expect(await db().collection<PendingUploadDoc>('pending_uploads').countDocuments({})).toBe(
          0,
        );
        const imports = await db().collection<ImportDoc>('imports').find({}).toArray();
        expect(imports.map((i) => i.state).sort()).toEqual(['done', 'failed']);
      },
      { timeout: 30_000, interval: 250 },
    );
    // every photo of the 8 trips is still there
    const keys = (await tripDocs()).flatMap((t) =>
      t.destinations.flatMap((d) => d.photos.map((p) => p.original.key)),
    );
    expect(keys).toHaveLength(TRIPS * PHOTOS_PER_TRIP);
    const stored = new Set(await photos.list());
    expect(keys.filter((k) => !stored.has(k))).toEqual([]);

    // and their trip.created events (the hidden trips never had one to publish)
    const events = await waitForEvents<{ type: string; aggregateId: string }>(
      Topics.tripsTrip,
      (e) =>
        e.type === 'trip.created' &&
        (ids.includes(e.aggregateId) || leftIds.includes(e.aggregateId)),
      { count: TRIPS },
    );
    expect(events.map((e) => e.aggregateId).sort()).toEqual([...ids].sort());
  }, 180_000);
});
