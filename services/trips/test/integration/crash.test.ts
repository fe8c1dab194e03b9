import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import type { Trip } from '@wayfarer/contracts';
import { gatewayHeaders } from '@wayfarer/test-kit';
import type { PendingUploadDoc } from '../../src/store/pending-uploads';
import { largeJpeg, png } from '../fixtures';
import { multipart, newUserId, tripFields } from './harness';
import { db, env, photos, procs, spoolDir, tripDocs, useCrashWorld } from './crash-world';
import { startTripsProcess } from './process';

/**
 * A trips process killed (SIGKILL) during concurrent uploads, then started again: the restarted
 * process removes what the dead one left (objects with no trip, spool files), on start and
 * with its periodic sweep, and keeps every object of the trips that exist. A short upload lease
 * (UPLOAD_LEASE_MS) so the dead uploads' records expire within the test.
 */
const LEASE_MS = 2000;

useCrashWorld('trips-crash-spool-', { UPLOAD_LEASE_MS: String(LEASE_MS) });
const pendingDocs = () => db().collection<PendingUploadDoc>('pending_uploads').find({}).toArray();

/** Files (not directories) under the spool root, at any depth. */
async function spoolFiles(): Promise<string[]> {
  const entries = await readdir(spoolDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Objects of the bucket whose trip document does not exist. */
async function orphanObjects(): Promise<string[]> {
  const trips = new Set((await tripDocs()).map((t) => t._id));
  return (await photos.list()).filter((key) => !trips.has(key.split('/')[0]!));
}

/** Every object the trip documents name (the original and, once made, the display variant). */
async function keysOfTrips(): Promise<string[]> {
  return (await tripDocs()).flatMap((t) =>
    t.destinations.flatMap((d) =>
      d.photos.flatMap((p) => [p.original.key, ...(p.display ? [p.display.key] : [])]),
    ),
  );
}

async function postTrip(url: string, body: { payload: Buffer; headers: Record<string, string> }) {
  const res = await fetch(`${url}/api/trips`, {
    method: 'POST',
    headers: { ...body.headers, ...gatewayHeaders('POST', '/api/trips', { userId: newUserId() }) },
    body: body.payload,
  });
  return { status: res.status, body: await res.text() };
}

describe('a crash during uploads leaves nothing behind once trips is back', () => {
  it('SIGKILL mid-upload, restart: orphan objects, pending records and spool files are swept', async () => {
    const first = await startTripsProcess(env);
    procs.push(first);
    const photo = await largeJpeg(2400, 1600);
    const forms = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        multipart(
          tripFields({ name: `Crash ${i}` }, [
            { name: 'Oslo', latitude: '59.9', longitude: '10.7' },
          ]),
          Array.from({ length: 4 }, (_, j) => ({
            field: 'photos[0]',
            data: photo,
            filename: `p${j}.jpg`,
            type: 'image/jpeg',
          })),
        ),
      ),
    );
    // five concurrent uploads; the process dies under them, so their answers are errors
    const uploads = forms.map((form) => postTrip(first.url, form).catch((err: unknown) => err));

    // mid-upload: the first objects are in the bucket
    await vi.waitFor(async () => expect((await photos.list()).length).toBeGreaterThan(0), {
      timeout: 60_000,
      interval: 20,
    });
    first.child.kill('SIGKILL');
    await vi.waitFor(() => expect(first.exited()).toBe(true));
    await Promise.all(uploads);

    // what the crash left: objects of trips that do not exist, or spool files, and records
    const left = { objects: await orphanObjects(), spool: await spoolFiles() };
    expect(left.objects.length + left.spool.length).toBeGreaterThan(0);
    expect(await pendingDocs()).not.toEqual([]);

    // objects of a trip cut before pending records existed: no trip, no record, long ago
    const ancient = ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 3600).toHexString();
    await photos.put(`${ancient}/${'a'.repeat(32)}/display.webp`, Buffer.from('x'), 'image/webp');

    const second = await startTripsProcess(env);
    procs.push(second);
    // a trip created by the new process meanwhile keeps its objects
    const created = await postTrip(
      second.url,
      await multipart(
        tripFields({ name: 'After' }, [{ name: 'Rome', latitude: '41.9', longitude: '12.5' }]),
        [{ field: 'photos[0]', data: await png(), filename: 'a.png', type: 'image/png' }],
      ),
    );
    expect(created.status, created.body).toBe(201);
    const after = JSON.parse(created.body) as Trip;

    await vi.waitFor(
      async () => {
        expect(await orphanObjects()).toEqual([]);
        expect(await pendingDocs()).toEqual([]);
        expect(await spoolFiles()).toEqual([]);
        // display variants of trips either process stored are made (resumed on start)
        expect((await tripDocs()).filter((t) => t.pendingVariants)).toEqual([]);
      },
      { timeout: 30_000, interval: 250 },
    );
    // nothing a trip needs went with them
    const keys = await keysOfTrips();
    expect(keys.some((key) => key.startsWith(`${after._id}/`))).toBe(true);
    expect((await photos.list()).sort()).toEqual(keys.sort());
    // the dead instance's spool directory is gone; the live one's is empty
    expect((await readdir(spoolDir)).length).toBe(1);
  });
});
