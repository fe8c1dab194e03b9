/**
 * `GET /api/feed` first page for a user with 200 friends x 20 trips (5 destinations,
 * 3 photos each), p95 within 3x a primary-key read (`SELECT ... FROM users WHERE id = $1`)
 * measured on the same database in the same rounds.
 *
 *   node --import tsx bench/social/feed.bench.ts          (infra up: deploy/local/up)
 *
 * social is booted by its composition root on a fresh database, twice: as deployed (the feed
 * cache on, kept exact by PostgreSQL's notifications) and with FEED_CACHE_MAX_BYTES=0 (every
 * read runs the feed's query). The read models are filled directly in SQL, as its consumers
 * write them (fixture.ts: `friendTrip`, the `trips` rows with their creation times). The feed is called as
 * the gateway calls it (Fastify inject, identity proof); the rounds interleave the three reads.
 * The budget row is the route as deployed (as /api/friends' bench holds it: the cache answers
 * a page until a change drops it, and nothing changes between these reads); the route with no
 * cache (the feed's query on every read: a cache miss, after a friend's change) and the second
 * page are informative rows.
 *
 * Measured (2 cores shared with other work, 2026-11-26): see bench/README.md.
 */
import { IdentityHeaders, SocialLimits } from '@wayfarer/contracts';
import type { SocialService } from '@wayfarer/social';
import { throughGateway } from '@wayfarer/test-kit';
import { recordBudget } from '../lib/results';
import { percentile, timed } from '../lib/stats';
import { cachesListening, FRIENDS_SHAPE, primaryKeyRead, startFriendsBench } from './fixture';

const { friends: FRIENDS, trips: TRIPS, destinations: DESTINATIONS } = FRIENDS_SHAPE;
const WARMUP = 10;
const ROUNDS = 60;

// creation times spread over the friends so the first page mixes many of them
const bench = await startFriendsBench('bench_feed', (f, t) => `${t * FRIENDS + f} minutes`, [
  {},
  { FEED_CACHE_MAX_BYTES: '0' },
]);
const { me } = bench;
const [cached, uncached] = bench.services as [SocialService, SocialService];
try {
  const pool = cached.pool;
  const cache = cached.feedPages.cache;
  if (!cache) throw new Error('the feed cache is off (FEED_CACHE_MAX_BYTES=0)');
  await cachesListening(cached, 'feed');

  const read = async (svc: typeof cached, url: string) => {
    const res = await throughGateway(svc.app).inject({
      url,
      headers: { [IdentityHeaders.userId]: me },
    });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}`);
    const body = res.json<{ items: unknown[]; nextCursor: string | null }>();
    if (body.items.length !== SocialLimits.feedPageDefault) throw new Error('a short page');
    return { bytes: res.rawPayload.length, next: body.nextCursor };
  };
  const first = await read(uncached, '/api/feed');
  const secondUrl = `/api/feed?cursor=${encodeURIComponent(first.next!)}`;
  const pk = primaryKeyRead(pool);
  const sides = {
    uncached: () => read(uncached, '/api/feed'),
    cached: () => read(cached, '/api/feed'),
    second: () => read(uncached, secondUrl),
    pk,
  };
  const ms: Record<keyof typeof sides, number[]> = { uncached: [], cached: [], second: [], pk: [] };
  for (let i = 0; i < WARMUP; i++) for (const fn of Object.values(sides)) await fn();
  const before = cache.stats();
  for (let i = 0; i < ROUNDS; i++) {
    // each round in another order, so no side always follows the same one
    const order = Object.keys(sides) as (keyof typeof sides)[];
    for (let k = 0; k < i % order.length; k++) order.push(order.shift()!);
    for (const side of order) ms[side].push(await timed(sides[side]));
  }
  const after = cache.stats();
  const hits = after.hits - before.hits;
  const hitRate = hits / (hits + after.misses - before.misses);
  const p = (side: keyof typeof sides, q: number) => percentile(ms[side], q);
  const per = SocialLimits.feedPageDefault;
  const shape = `${per} of ${FRIENDS} friends x ${TRIPS} trips x ${DESTINATIONS} destinations`;
  console.log(
    `GET /api/feed first page (${shape}), ${first.bytes} bytes: no cache p50 ${p('uncached', 50).toFixed(2)} ms, ` +
      `p95 ${p('uncached', 95).toFixed(2)} ms; cached p50 ${p('cached', 50).toFixed(2)} ms, ` +
      `p95 ${p('cached', 95).toFixed(2)} ms (hit rate ${(hitRate * 100).toFixed(0)}%); second page ` +
      `p95 ${p('second', 95).toFixed(2)} ms; primary-key read p50 ${p('pk', 50).toFixed(3)} ms, ` +
      `p95 ${p('pk', 95).toFixed(3)} ms`,
  );
  const rounds = `${ROUNDS} interleaved rounds after ${WARMUP} warm-up; the baseline is pool.query of users by id`;
  recordBudget({
    name: `GET /api/feed first page (${shape}) as deployed (feed cache) p95 / primary-key read p95`,
    figure: p('cached', 95),
    baseline: p('pk', 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note: `hit rate ${(hitRate * 100).toFixed(0)}% (nothing changed between reads); ${rounds}`,
  });
  recordBudget({
    name: `GET /api/feed first page (${shape}), no feed cache, p95 / primary-key read p95`,
    figure: p('uncached', 95),
    baseline: p('pk', 95),
    unit: 'ms',
    budget: { none: true },
    note: `answer ${first.bytes} bytes; p50 ${p('uncached', 50).toFixed(2)} ms vs ${p('pk', 50).toFixed(3)} ms; the feed's query on every read; ${rounds}`,
  });
  recordBudget({
    name: `GET /api/feed second page (its cursor), no feed cache, p95 / primary-key read p95`,
    figure: p('second', 95),
    baseline: p('pk', 95),
    unit: 'ms',
    budget: { none: true },
    note: rounds,
  });
} finally {
  await bench.close();
}
