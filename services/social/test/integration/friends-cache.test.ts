import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { FRIENDS_NEXT_CURSOR_HEADER, type Friend } from '@wayfarer/contracts';
import type { SocialService } from '../../src/service';
import {
  as,
  friendsCacheListening,
  startSecondInstance,
  waitOptions,
  type Harness,
  socialPerFile,
} from './harness';

/**
 * The friends cache (store/friends-cache.ts) in the running service: once a first page is
 * served from memory, every change that alters it (through events, routes, another instance,
 * SQL by hand) is seen in it, and so is a change made while its LISTEN connection was lost.
 * Each change is checked on a page known to be cached, so without the invalidation the stale
 * page would be answered for ever and the test would time out.
 */

let h: Harness;
socialPerFile((harness) => (h = harness), { cacheListening: true });

const ROME = { latitude: 41.9028, longitude: 12.4964 };

async function firstPage(app: FastifyInstance, userId: string) {
  const res = await app.inject({ url: '/api/friends', headers: as(userId) });
  expect(res.statusCode, res.body).toBe(200);
  return { friends: res.json<Friend[]>(), next: res.headers[FRIENDS_NEXT_CURSOR_HEADER] };
}

/**
 * Reads `userId`'s first page until it is answered from the cache (a read stores nothing when
 * a change raced it, so it may take more than one), and returns it.
 */
async function cachedFirstPage(
  userId: string,
  svc: SocialService = h,
  app: FastifyInstance = h.app,
) {
  return vi.waitFor(async () => {
    await firstPage(app, userId);
    const hits = svc.friendsPages.cache!.stats().hits;
    const page = await firstPage(app, userId);
    expect(svc.friendsPages.cache!.stats().hits, 'answered from the cache').toBe(hits + 1);
    return page.friends;
  }, waitOptions);
}

/** Polls `userId`'s first page until `check` holds. */
function seen(userId: string, check: (friends: Friend[]) => void, app: FastifyInstance = h.app) {
  return vi.waitFor(async () => check((await firstPage(app, userId)).friends), waitOptions);
}

describe('a cached first page of /api/friends', () => {
  it("changes with a friend's trips (events), profile (event) and friendships (routes)", async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await h.befriend(ann, bob);
    expect(await cachedFirstPage(ann)).toEqual([expect.objectContaining({ id: bob, trips: [] })]);

    // a friend's trip, created then deleted through trips' events
    const created = await h.createTrip(bob, [{ name: 'Rome', ...ROME }], { name: 'Spring' });
    const tripId = (created.payload as { tripId: string }).tripId;
    await seen(ann, (f) => expect(f[0]?.trips.map((t) => t._id)).toEqual([tripId]));
    expect((await cachedFirstPage(ann))[0]?.trips).toHaveLength(1);
    await h.deleteTrip(bob, tripId);
    await seen(ann, (f) => expect(f[0]?.trips).toEqual([]));

    // a friend's new name and picture (auth's user event)
    await cachedFirstPage(ann);
    await h.announceUser(bob, 'Bobby', `/api/avatars/${bob}/b.webp`);
    await seen(ann, (f) =>
      expect(f[0]).toMatchObject({ name: 'Bobby', picture: `/api/avatars/${bob}/b.webp` }),
    );

    // a new friendship, on both sides' cached pages
    const cat = await h.register('Cat');
    await cachedFirstPage(ann);
    expect(await cachedFirstPage(cat)).toEqual([]);
    await h.befriend(cat, ann);
    await seen(ann, (f) => expect(f.map((x) => x.id).sort()).toEqual([bob, cat].sort()));
    await seen(cat, (f) => expect(f.map((x) => x.id)).toEqual([ann]));

    // unfriending
    await cachedFirstPage(ann);
    expect((await h.unfriend(bob, ann)).statusCode).toBe(200);
    await seen(ann, (f) => expect(f.map((x) => x.id)).toEqual([cat]));
  });

  it('changes with writes made in SQL by hand (every write path notifies)', async () => {
    const dan = await h.register('Dan');
    const eve = await h.register('Eve');
    await h.befriend(dan, eve);
    await cachedFirstPage(dan);
    await h.pool.query(`UPDATE users SET name = 'Evelyn' WHERE id = $1`, [eve]);
    await seen(dan, (f) => expect(f[0]?.name).toBe('Evelyn'));

    await cachedFirstPage(dan);
    await h.pool.query('DELETE FROM friendships WHERE user_id = $1', [dan]);
    await seen(dan, (f) => expect(f).toEqual([]));
  });

  it('on another instance of the same database: a change made through one is seen by the other', async () => {
    const two = await startSecondInstance(h);
    try {
      await friendsCacheListening(two.svc);
      const fay = await h.register('Fay');
      const gus = await h.register('Gus');
      await h.befriend(fay, gus);
      // instance two's cache holds fay's page; the change goes through instance one
      await cachedFirstPage(fay, two.svc, two.app);
      expect((await h.unfriend(gus, fay)).statusCode).toBe(200);
      await seen(fay, (f) => expect(f).toEqual([]), two.app);

      await cachedFirstPage(fay, two.svc, two.app);
      await h.befriend(fay, gus);
      await seen(fay, (f) => expect(f.map((x) => x.id)).toEqual([gus]), two.app);
    } finally {
      await two.close();
    }
  });

  it('is dropped when the LISTEN connection is lost; changes are seen after it reconnects', async () => {
    const hal = await h.register('Hal');
    const ivy = await h.register('Ivy');
    await h.befriend(hal, ivy);
    await cachedFirstPage(hal);
    const cache = h.friendsPages.cache!;
    const { resets } = cache.stats();

    const { rows } = await h.pool.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'social friends cache'`,
    );
    expect(rows).toEqual([{ killed: true }]);
    // written at once, most likely while nobody listens: never heard, yet never served stale
    await h.pool.query(`UPDATE users SET name = 'Ivy while lost' WHERE id = $1`, [ivy]);
    await vi.waitFor(() => expect(cache.stats().resets).toBe(resets + 1), waitOptions);
    await seen(hal, (f) => expect(f[0]?.name).toBe('Ivy while lost'));

    // listening again: pages are cached again, and later changes still seen
    await friendsCacheListening(h);
    await cachedFirstPage(hal);
    await h.pool.query(`UPDATE users SET name = 'Ivy after' WHERE id = $1`, [ivy]);
    await seen(hal, (f) => expect(f[0]?.name).toBe('Ivy after'));
  });

  it('answers exactly what the query answers, cursor header included', async () => {
    const jo = await h.register('Jo');
    const friends = [];
    for (const name of ['K1', 'K2', 'K3', 'K4', 'K5', 'K6']) {
      const id = await h.register(name);
      await h.befriend(jo, id);
      friends.push(id);
    }
    const direct = await h.stores.friends.friendsPageJson(jo, null, 5);
    const uncached = await h.app.inject({ url: '/api/friends', headers: as(jo) });
    await cachedFirstPage(jo);
    const cached = await h.app.inject({ url: '/api/friends', headers: as(jo) });
    for (const res of [uncached, cached]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(direct.body);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers[FRIENDS_NEXT_CURSOR_HEADER]).toBe(
        uncached.headers[FRIENDS_NEXT_CURSOR_HEADER],
      );
    }
    expect(uncached.headers[FRIENDS_NEXT_CURSOR_HEADER]).toBeTypeOf('string');
    // what the cache indexes the page by: the friends it shows
    const shown = JSON.parse(direct.body) as Friend[];
    expect(direct.friendIds).toEqual(shown.map((f) => f.id));
    expect(friends).toEqual(expect.arrayContaining(direct.friendIds));
  });
});
