/**
 * Issue 21: `GET /api/feed` first page for a user with 200 friends x 20 trips (5 destinations,
 * 3 photos each), p95 within 3x a primary-key read (`SELECT ... FROM users WHERE id = $1`)
 * measured on the same database in the same rounds.
 *
 *   node --import tsx bench/social/feed.bench.ts          (infra up: deploy/local/up)
 *
 * social is booted by its composition root on a fresh database, twice: as deployed (the feed
 * cache on, kept exact by PostgreSQL's notifications) and with FEED_CACHE_MAX_BYTES=0 (every
 * read runs the feed's query). The read models are filled directly in SQL, as its consumers
 * write them (`friendTrip`, the `trips` rows with their creation times). The feed is called as
 * the gateway calls it (Fastify inject, identity proof); the rounds interleave the three reads.
 * The budget row is the route as deployed (as /api/friends' bench holds it: the cache answers
 * a page until a change drops it, and nothing changes between these reads); the route with no
 * cache (the feed's query on every read: a cache miss, after a friend's change) and the second
 * page are informative rows.
 *
 * Measured (2 cores shared with other work, 2026-11-26): see bench/README.md.
 */
import { IdentityHeaders, SocialLimits } from '@wayfarer/contracts';
import { loadConfig } from '@wayfarer/service-kit';
import { dropDatabase, freshDatabase, testServiceEnv, throughGateway } from '@wayfarer/test-kit';
import { createService, friendTrip, SocialEnv } from '@wayfarer/social';
import { recordBudget } from '../lib/results';
import { percentile, timed } from '../lib/stats';

const FRIENDS = 200;
const TRIPS = 20;
const DESTINATIONS = 5;
const WARMUP = 10;
const ROUNDS = 60;

const dbUrl = await freshDatabase('bench_feed');
const cachedEnv = loadConfig(SocialEnv, testServiceEnv({ DATABASE_URL: dbUrl }));
const uncachedEnv = loadConfig(
  SocialEnv,
  testServiceEnv({ DATABASE_URL: dbUrl, FEED_CACHE_MAX_BYTES: '0' }),
);
const cached = await createService(cachedEnv, { skipHistory: true });
const uncached = await createService(uncachedEnv, { skipHistory: true });
try {
  const me = 'bench-me';
  const pool = cached.pool;
  await pool.query(
    `INSERT INTO users (id, name, search_key, picture)
     SELECT 'u' || i, 'Friend ' || i, 'friend ' || i, '/api/avatars/u' || i || '/a.webp'
       FROM generate_series(1, $1) i`,
    [FRIENDS],
  );
  await pool.query(
    `INSERT INTO friendships (user_id, friend_id)
     SELECT $1, 'u' || i FROM generate_series(1, $2) i
     UNION ALL SELECT 'u' || i, $1 FROM generate_series(1, $2) i`,
    [me, FRIENDS],
  );
  // what social's trips consumer writes for each trip.created; creation times spread over the
  // friends so the first page mixes many of them
  const owners: string[] = [];
  const ages: number[] = [];
  const docs: string[] = [];
  const summaries: string[] = [];
  for (let f = 1; f <= FRIENDS; f++) {
    for (let t = 1; t <= TRIPS; t++) {
      const tripId = `t${f}-${t}`;
      const trip = friendTrip({
        tripId,
        name: `Trip ${t}`,
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: Array.from({ length: DESTINATIONS }, (_, d) => ({
          id: `d${f}-${t}-${d + 1}`,
          name: `Destination ${d + 1}`,
          latitude: 41.9,
          longitude: 12.5,
          startDate: '2026-05-01',
          endDate: '2026-05-03',
          photos: [1, 2, 3].map((p) => `/api/photos/${tripId}/p${p}`),
          storyPreview: 'x'.repeat(100) + '...',
        })),
      });
      owners.push(`u${f}`);
      ages.push(t * FRIENDS + f);
      docs.push(JSON.stringify(trip.doc));
      summaries.push(JSON.stringify(trip.summary));
    }
  }
  await pool.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary)
     SELECT x.doc->>'_id', x.owner, now() - (x.age || ' minutes')::interval, x.doc, x.summary
       FROM unnest($1::text[], $2::int[], $3::json[], $4::json[]) AS x(owner, age, doc, summary)`,
    [owners, ages, docs, summaries],
  );
  await pool.query('ANALYZE');
  const cache = cached.feedPages.cache;
  if (!cache) throw new Error('the feed cache is off (FEED_CACHE_MAX_BYTES=0)');
  const listenDeadline = performance.now() + 10_000;
  while (!cached.friendsListener?.listening) {
    if (performance.now() > listenDeadline) throw new Error('the feed cache never listened');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }

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
  const pk = async () => {
    const { rowCount } = await pool.query('SELECT id, name, picture FROM users WHERE id = $1', [
      'u7',
    ]);
    if (rowCount !== 1) throw new Error('primary-key read found nothing');
  };
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
  await uncached.close();
  await cached.close();
  await dropDatabase(dbUrl);
}
