import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExportArchive,
  ExportAreas,
  ExportedTrip,
  ExportManifest,
  TripExportFormats,
  type Trip,
} from '@wayfarer/contracts';
import { gatewayHeaders, testInfra } from '@wayfarer/test-kit';
import { startTcpProxy, type TcpProxy } from '@wayfarer/test-kit/faults';
import { unzipEntries as unzip } from '@wayfarer/test-kit/zip';
import { exportTripFile } from '../../src/domain/export';
import { gif, largeJpeg, png, webp } from '../fixtures';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

// GET /api/export, trips' part of the account ZIP (its trips, photos and per-trip
// files, the manifest). The other services' areas: every one of them unreachable here (their
// addresses are a closed port), so each is listed as missing; the e2e test (e2e/tests/
// export.test.ts) exports a user with every area, through the gateway.

let h: Harness;

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const down = `http://127.0.0.1:${await closedPort()}`;
  h = await startTrips(
    {},
    {
      AUTH_URL: down,
      BUCKETLIST_URL: down,
      SOCIAL_URL: down,
      JOURNAL_URL: down,
      CHAT_URL: down,
    },
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const entry = (path: string) => `${ExportArchive.root}/${path}`;

async function createTrip(userId: string, name: string, photos: Buffer[][]): Promise<Trip> {
  const destinations = photos.map((_, i) => ({
    name: `${name} stop ${i}`,
    latitude: String(40 + i),
    longitude: String(10 + i),
    startDate: '2026-05-01',
    endDate: '2026-05-02',
    story: `The story of stop ${i}.`,
  }));
  const files = photos.flatMap((list, i) =>
    list.map((data) => ({ field: `photos[${i}]`, data, filename: 'p.png', type: 'image/png' })),
  );
  const res = await postTrip(
    h.app,
    userId,
    tripFields({ name, startDate: '2026-05-01', endDate: '2026-05-09' }, destinations),
    files,
  );
  expect(res.statusCode, res.body).toBe(201);
  await h.variants.idle();
  return res.json<Trip>();
}

describe('GET /api/export', () => {
  it("streams a ZIP of the user's trips, original photos and per-trip files, naming the areas it could not get", async () => {
    const ann = newUserId();
    const bob = newUserId();
    const rome = await createTrip(ann, 'Rome', [[await png(300, 200), await webp()], []]);
    const oslo = await createTrip(ann, 'Oslo', [[await gif()]]);
    const bobs = await createTrip(bob, 'Bob in Lima', [[await png(64, 64)]]);

    const res = await h.app.inject({ url: '/api/export', headers: as(ann) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="wayfarer-export-${today}.zip"`,
    );
    const files = await unzip(res.rawPayload);

    const manifest = ExportManifest.parse(
      JSON.parse(files.get(entry('manifest.json'))!.toString()),
    );
    expect(manifest).toMatchObject({ format: ExportArchive.format, version: 1 });
    expect(manifest.missingAreas).toEqual([...ExportAreas]);
    for (const area of ExportAreas) expect(files.has(entry(`${area}.json`))).toBe(false);

    const trips = ExportedTrip.array().parse(
      JSON.parse(files.get(entry('trips.json'))!.toString()),
    );
    // newest first, as the owner's list
    expect(trips.map((t) => t.id)).toEqual([oslo._id, rome._id]);
    const photoPaths: string[] = [];
    for (const trip of trips) {
      const stored = (await h.trips.findOwned(trip.id, ann))!;
      expect(trip).toMatchObject({
        name: stored.name,
        startDate: stored.startDate,
        endDate: stored.endDate,
        visibility: stored.visibility,
      });
      trip.destinations.forEach((d, i) => {
        const doc = stored.destinations[i]!;
        expect(d).toMatchObject({ id: doc._id, name: doc.name, story: doc.story });
        expect(d.photos).toHaveLength(doc.photos.length);
      });
      // every original photo, byte for byte as stored
      for (const [i, d] of trip.destinations.entries()) {
        for (const [j, path] of d.photos.entries()) {
          const original = stored.destinations[i]!.photos[j]!.original;
          expect(path).toMatch(new RegExp(`^photos/${trip.id}/[\\w-]+\\.(png|webp|gif)$`));
          const stream = await h.photos.get(original.key);
          expect(files.get(entry(path))!.equals(await buffer(stream!))).toBe(true);
          photoPaths.push(path);
        }
      }
      // each per-trip file as GET /api/trips/{id}/export.<format> makes it
      for (const format of TripExportFormats) {
        const file = files.get(entry(`trips/${trip.id}/trip.${format}`));
        expect(file, format).toBeDefined();
        const expected = exportTripFile(stored, format, { now: new Date(manifest.exportedAt) });
        expect(file!.toString()).toBe(expected.body);
      }
    }
    expect(photoPaths).toHaveLength(3);

    // nothing else, and nothing of Bob's
    const expected = new Set([
      entry('manifest.json'),
      entry('trips.json'),
      ...photoPaths.map(entry),
      ...[oslo, rome].flatMap((t) =>
        TripExportFormats.map((f) => entry(`trips/${t._id}/trip.${f}`)),
      ),
    ]);
    expect(new Set(files.keys())).toEqual(expected);
    expect(res.rawPayload.includes(bobs._id)).toBe(false);
    expect(res.rawPayload.includes('Bob in Lima')).toBe(false);
  });

  it('answers an empty archive to a user without trips, and 401 to nobody', async () => {
    const res = await h.app.inject({ url: '/api/export', headers: as(newUserId()) });
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    expect(JSON.parse(files.get(entry('trips.json'))!.toString())).toEqual([]);
    expect((await h.app.inject({ url: '/api/export' })).statusCode).toBe(401);
  });

  it('stops when the client leaves midway, and the next export is whole', async () => {
    const carl = newUserId();
    // noisy photos (~3 MB each): the download cannot fit in the sockets' buffers
    const big = await largeJpeg();
    await createTrip(carl, 'Big', [[big, big, big]]);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const headers = gatewayHeaders('GET', '/api/export', { userId: carl });
    const firstChunk = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/export', headers }, (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy();
          resolve(chunk.length);
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    expect(firstChunk).toBeGreaterThan(0);
    const again = await h.app.inject({ url: '/api/export', headers: as(carl) });
    expect(again.statusCode).toBe(200);
    const files = await unzip(again.rawPayload);
    const trips = JSON.parse(files.get(entry('trips.json'))!.toString()) as ExportedTrip[];
    expect(trips[0]!.destinations[0]!.photos).toHaveLength(3);
    // the first download had barely started
    expect(firstChunk).toBeLessThan(again.rawPayload.length / 2);
  });
  it('writes a photo removed since the trip was read as an empty entry, the others whole', async () => {
    const dana = newUserId();
    const trip = await createTrip(dana, 'Gone', [[await png(40, 40), await png(50, 50)]]);
    const stored = (await h.trips.findOwned(trip._id, dana))!;
    const [kept, gone] = stored.destinations[0]!.photos.map((p) => p.id);
    const originals = stored.destinations[0]!.photos.map((p) => p.original);
    await h.photos.remove(originals[1]!.key);
    const res = await h.app.inject({ url: '/api/export', headers: as(dana) });
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    const path = (id: string | undefined) =>
      [...files.keys()].find((name) => name.includes(`/photos/${trip._id}/${id}.`))!;
    expect(files.get(path(gone))!.length).toBe(0);
    const keptBytes = await buffer((await h.photos.get(originals[0]!.key))!);
    expect(files.get(path(kept))!.equals(keptBytes)).toBe(true);
  });
});

describe('GET /api/export when MinIO goes away midway', () => {
  let proxied: Harness;
  let proxy: TcpProxy;

  beforeAll(async () => {
    proxy = await startTcpProxy(testInfra().s3.endpoint);
    const down = `http://127.0.0.1:${await closedPort()}`;
    proxied = await startTrips(
      {},
      {
        S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
        ...Object.fromEntries(
          ['AUTH_URL', 'BUCKETLIST_URL', 'SOCIAL_URL', 'JOURNAL_URL', 'CHAT_URL'].map((k) => [
            k,
            down,
          ]),
        ),
      },
    );
    await proxied.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    await proxied?.close();
    await proxy?.close();
  });

  it('breaks the download (never a short valid ZIP)', async () => {
    const erin = newUserId();
    const res = await postTrip(
      proxied.app,
      erin,
      tripFields({ name: 'Far', startDate: '2026-05-01', endDate: '2026-05-09' }, [
        {
          name: 'Stop',
          latitude: '40',
          longitude: '10',
          startDate: '2026-05-01',
          endDate: '2026-05-02',
          story: '',
        },
      ]),
      await Promise.all(
        [30, 31, 32].map(async (side) => ({
          field: 'photos[0]',
          data: await png(side, side),
          filename: 'p.png',
          type: 'image/png',
        })),
      ),
    );
    expect(res.statusCode, res.body).toBe(201);
    await proxied.variants.idle();
    // originals of 20 MB each: far more than the sockets' buffers hold
    const stored = (await proxied.trips.findOwned(res.json<Trip>()._id, erin))!;
    for (const photo of stored.destinations[0]!.photos) {
      await proxied.photos.put(photo.original.key, randomBytes(20 * 1024 * 1024), 'image/png');
    }
    const { port } = proxied.app.server.address() as AddressInfo;
    const headers = gatewayHeaders('GET', '/api/export', { userId: erin });
    const answer = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: '127.0.0.1', port, path: '/api/export', headers }, resolve)
        .on('error', reject)
        .end(),
    );
    expect(answer.statusCode).toBe(200);
    let received = 0;
    const ended = new Promise<'end'>((resolve, reject) => {
      answer.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 1024 * 1024) proxy.cut(); // MinIO gone while a photo streams
      });
      answer.on('end', () => resolve('end'));
      answer.on('error', reject);
      answer.on('aborted', () => reject(new Error('aborted')));
    });
    await expect(ended).rejects.toThrow();
    expect(received).toBeLessThan(60 * 1024 * 1024);
    proxy.restore();
  });
});
