import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Trip, TripSummary } from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import { createService, type TripsService } from '../../src/service';
import { png } from '../fixtures';
import {
  as,
  createSimpleTrip,
  newUserId,
  postTrip,
  startTrips,
  tripFields,
  type Harness,
} from './harness';

let h: Harness;
let image: Buffer;
beforeAll(async () => {
  h = await startTrips();
  image = await png(300, 200);
});
afterAll(async () => {
  await h?.close();
});

const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };

type App = Harness['app'];
const listOf = async (userId: string, app: App = h.app) => {
  const res = await app.inject({ url: '/api/mytrips', headers: as(userId) });
  expect(res.statusCode).toBe(200);
  return res;
};
const idsOf = async (userId: string, app: App = h.app) =>
  (await listOf(userId, app)).json<TripSummary[]>().map((t) => t._id);

describe('GET /api/mytrips from the instance’s cache, kept right by the owner’s list version', () => {
  const owner = newUserId();
  const stranger = newUserId();
  let first: Trip;

  it('a second read of an unchanged list is a hit, with the same bytes and headers', async () => {
    first = await createSimpleTrip(h, owner, image, 'First');
    const before = h.mytrips.stats();
    const miss = await listOf(owner);
    const hit = await listOf(owner);
    expect(h.mytrips.stats()).toMatchObject({
      hits: before.hits + 1,
      misses: before.misses + 1,
    });
    expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const name of ['content-type', 'content-length'] as const) {
      expect(hit.headers[name]).toBe(miss.headers[name]);
    }
    expect(miss.json<TripSummary[]>().map((t) => t._id)).toEqual([first._id]);
  });

  it('a client that takes brotli gets the kept list encoded once, the same JSON; others get it plain', async () => {
    const plain = await listOf(owner);
    for (const accept of ['gzip, deflate, br', 'br;q=1.0, *;q=0.1']) {
      const res = await h.app.inject({
        url: '/api/mytrips',
        headers: { ...as(owner), 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    }
    for (const accept of ['gzip', 'br;q=0, gzip', 'identity']) {
      const res = await h.app.inject({
        url: '/api/mytrips',
        headers: { ...as(owner), 'accept-encoding': accept },
      });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
  });

  it('a trip created shows in the list as soon as it is answered', async () => {
    await listOf(owner); // kept
    const res = await postTrip(h.app, owner, tripFields({ name: 'Second' }, [oslo]));
    expect(res.statusCode, res.body).toBe(201);
    const second = res.json<Trip>();
    expect(await idsOf(owner)).toEqual([second._id, first._id]);
    // another user's list never shows them
    expect(await idsOf(stranger)).toEqual([]);
    await h.app.inject({ method: 'DELETE', url: `/api/trips/${second._id}`, headers: as(owner) });
  });

  it('a trip deleted leaves the list as soon as it is answered', async () => {
    const gone = await createSimpleTrip(h, owner, image, 'Gone');
    expect(await idsOf(owner)).toEqual([gone._id, first._id]);
    expect(await idsOf(owner)).toEqual([gone._id, first._id]); // kept
    const hits = h.mytrips.stats().hits;
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${gone._id}`,
      headers: as(owner),
    });
    expect(res.statusCode).toBe(200);
    expect(await idsOf(owner)).toEqual([first._id]);
    expect(h.mytrips.stats().hits).toBe(hits); // read again, not served the kept list
    // a delete that changed nothing (404) keeps the kept list
    const again = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${gone._id}`,
      headers: as(owner),
    });
    expect(again.statusCode).toBe(404);
    expect(await idsOf(owner)).toEqual([first._id]);
    expect(h.mytrips.stats().hits).toBe(hits + 1);
    expect(await idsOf(stranger)).toEqual([]);
  });

  it('a photo’s display variant made turns its pending URL into the ready one', async () => {
    // hold the variant job before it reads the original back, until the list was read
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const download = h.photos.download.bind(h.photos);
    const spy = vi
      .spyOn(h.photos, 'download')
      .mockImplementation(async (key, path) => held.then(() => download(key, path)));
    try {
      const res = await postTrip(h.app, owner, tripFields({ name: 'Photo' }, [oslo]), [
        { field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const trip = res.json<Trip>();
      const pendingUrl = trip.destinations[0]!.photos[0]!;
      expect(pendingUrl).toMatch(/\?pending=1$/);
      const photosOf = async () =>
        (await listOf(owner)).json<TripSummary[]>().find((t) => t._id === trip._id)!
          .destinations[0]!.photos;
      expect(await photosOf()).toEqual([pendingUrl]);
      const hits = h.mytrips.stats().hits;
      expect(await photosOf()).toEqual([pendingUrl]);
      expect(h.mytrips.stats().hits).toBe(hits + 1);

      release();
      await h.variants.idle();
      expect(await photosOf()).toEqual([pendingUrl.replace('?pending=1', '')]);
      expect(h.mytrips.stats().hits).toBe(hits + 1);
    } finally {
      release();
      spy.mockRestore();
    }
  });
});

describe('two instances on one database', () => {
  let second: TripsService;
  let app2: App;
  beforeAll(async () => {
    second = await createService(h.env, { skipHistory: true });
    app2 = throughGateway(second.app);
  });
  afterAll(async () => {
    await second?.close();
  });

  it('a write through one shows at once in the list the other kept', async () => {
    const owner = newUserId();
    const kept = await createSimpleTrip(h, owner, image, 'Kept');
    expect(await idsOf(owner, app2)).toEqual([kept._id]);
    expect(await idsOf(owner, app2)).toEqual([kept._id]);
    expect(second.mytrips.stats().hits).toBe(1);

    // created through instance 1: instance 2's kept list is out of date at once
    const res = await postTrip(h.app, owner, tripFields({ name: 'Through one' }, [oslo]));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<Trip>();
    expect(await idsOf(owner, app2)).toEqual([created._id, kept._id]);

    // and the other way round: deleted through instance 2, gone from instance 1's kept list
    expect(await idsOf(owner)).toEqual([created._id, kept._id]);
    expect(await idsOf(owner)).toEqual([created._id, kept._id]);
    const deleted = await app2.inject({
      method: 'DELETE',
      url: `/api/trips/${created._id}`,
      headers: as(owner),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await idsOf(owner)).toEqual([kept._id]);
    expect(await idsOf(newUserId(), app2)).toEqual([]);
  });
});

describe('MYTRIPS_CACHE_MAX_BYTES=0', () => {
  it('keeps nothing: every list is read', async () => {
    const off = await createService(
      { ...h.env, MYTRIPS_CACHE_MAX_BYTES: 0 },
      { skipHistory: true },
    );
    try {
      const app = throughGateway(off.app);
      const owner = newUserId();
      const trip = await createSimpleTrip(h, owner, image, 'Uncached');
      expect(await idsOf(owner, app)).toEqual([trip._id]);
      expect(await idsOf(owner, app)).toEqual([trip._id]);
      expect(off.mytrips.stats()).toMatchObject({ hits: 0, misses: 0, entries: 0 });
    } finally {
      await off.close();
    }
  });
});
