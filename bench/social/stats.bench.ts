/**
 * `GET /api/stats` for a user with 1,000 destinations (100 trips x 10, points in
 * cities on every continent), side by side with an indexed primary-key read
 * (`SELECT ... FROM users WHERE id = $1`) on the same database in the same run.
 *
 *   node --import tsx bench/social/stats.bench.ts          (infra up: deploy/local/up)
 *
 * social is booted by its composition root on a fresh database; the trips are written in SQL
 * as its trips consumer writes them (the friends' view, the list's summary and each
 * destination's country, found once by the atlas). `/api/stats` is called as the gateway calls
 * it (Fastify inject, identity proof), interleaved with the baseline round by round. The budget
 * row is the route as deployed: the stats cache answers it after the first read, until a write
 * of one of the user's trips (its notification) drops it. Informative rows: the read right after
 * such a write (a cache miss: the rows read, the figures computed, the answer stored), and the
 * figures' computation alone.
 */
import { loadavg } from 'node:os';
import { IdentityHeaders, StatsResponse } from '@wayfarer/contracts';
import { destinationCountries, friendTrip, statsOf } from '@wayfarer/social/bench';
import { throughGateway } from '@wayfarer/test-kit';
import { recordBudget } from '../lib/results';
import { mulberry32, percentile, timed } from '../lib/stats';
import {
  benchDatabase,
  cachesListening,
  primaryKeyRead,
  startSocial,
  writeAndWaitDropped,
} from './fixture';

const TRIPS = 100;
const DESTINATIONS = 10;
const WARMUP = 10;
const ROUNDS = 200;

// points near cities on every continent, jittered by up to ~20 km
const CITIES: ReadonlyArray<[number, number]> = [
  [41.9, 12.5],
  [48.86, 2.35],
  [52.52, 13.4],
  [40.42, -3.7],
  [38.72, -9.14],
  [51.5, -0.12],
  [59.33, 18.07],
  [50.08, 14.44],
  [35.68, 139.65],
  [37.57, 126.98],
  [13.75, 100.5],
  [28.61, 77.21],
  [-33.87, 151.21],
  [-36.85, 174.76],
  [40.71, -74.0],
  [19.43, -99.13],
  [45.5, -73.57],
  [-23.55, -46.63],
  [-34.6, -58.38],
  [-12.05, -77.04],
  [30.04, 31.24],
  [-1.29, 36.82],
  [-33.92, 18.42],
  [33.57, -7.59],
  [64.15, -21.94],
  [21.31, -157.86],
];

const db = await benchDatabase('bench_social_stats');
const svc = await startSocial(db.url);
try {
  const me = 'bench-traveller';
  await svc.pool.query(
    `INSERT INTO users (id, name, search_key, picture)
     SELECT 'u' || i, 'User ' || i, 'user ' || i, '/api/avatars/u' || i || '/a.webp'
       FROM generate_series(1, 200) i`,
  );
  await svc.pool.query(
    `INSERT INTO users (id, name, search_key, picture) VALUES ($1, 'Traveller', 'traveller', '')`,
    [me],
  );
  const random = mulberry32(22);
  const trips = [];
  for (let t = 1; t <= TRIPS; t++) {
    const tripId = `t${t}`;
    const day = (d: number) =>
      new Date(Date.UTC(2015, 0, 1) + (t * 30 + d) * 86_400_000).toISOString().slice(0, 10);
    const destinations = Array.from({ length: DESTINATIONS }, (_, d) => {
      const [lat, lon] = CITIES[Math.floor(random() * CITIES.length)]!;
      return {
        id: `d${t}-${d + 1}`,
        name: `Destination ${d + 1}`,
        latitude: lat + (random() - 0.5) * 0.3,
        longitude: lon + (random() - 0.5) * 0.3,
        startDate: day(d),
        endDate: day(d + 1),
        photos: [1, 2, 3].map((p) => `/api/photos/${tripId}/p${p}`),
        storyPreview: 'x'.repeat(100) + '...',
      };
    });
    const trip = friendTrip({
      tripId,
      name: `Trip ${t}`,
      startDate: day(0),
      endDate: day(DESTINATIONS),
      destinations,
    });
    trips.push({ ...trip, countries: destinationCountries(destinations), age: TRIPS - t });
  }
  await svc.pool.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary, countries, visibility)
     SELECT x.doc->>'_id', $1, now() - (x.age || ' days')::interval, x.doc, x.summary,
            x.countries, CASE WHEN x.age % 10 = 0 THEN 'private' ELSE 'friends' END
       FROM unnest($2::int[], $3::json[], $4::json[], $5::json[])
         AS x(age, doc, summary, countries)`,
    [
      me,
      trips.map((t) => t.age),
      trips.map((t) => JSON.stringify(t.doc)),
      trips.map((t) => JSON.stringify(t.summary)),
      trips.map((t) => JSON.stringify(t.countries)),
    ],
  );
  await svc.pool.query('ANALYZE');
  const cache = svc.statsPages.cache;
  if (!cache) throw new Error('the stats cache is off (STATS_CACHE_MAX_BYTES=0)');
  await cachesListening(svc, 'stats');

  const app = throughGateway(svc.app);
  let bytes = 0;
  let answer: StatsResponse | null = null;
  const stats = async () => {
    const res = await app.inject({ url: '/api/stats', headers: { [IdentityHeaders.userId]: me } });
    if (res.statusCode !== 200) throw new Error(`GET /api/stats answered ${res.statusCode}`);
    bytes = res.rawPayload.length;
    answer = StatsResponse.parse(res.json());
  };
  const pk = primaryKeyRead(svc.pool);
  // a write of one of the user's trips (as a trip.updated would be), then the wait until its
  // notification has dropped the cached answer
  const invalidate = () =>
    writeAndWaitDropped(svc, cache, `UPDATE trips SET version = version WHERE id = 't1'`);
  // the figures' computation alone (rows read once, outside the timing)
  const { rows } = await svc.pool.query<Parameters<typeof statsOf>[0][number]>(
    `SELECT summary, countries FROM trips WHERE owner_id = $1 AND NOT deleted`,
    [me],
  );
  const compute = async () => statsOf(rows);

  for (let i = 0; i < WARMUP; i++) {
    await stats();
    await pk();
    await compute();
  }
  const statsMs: number[] = [];
  const pkMs: number[] = [];
  const missMs: number[] = [];
  const computeMs: number[] = [];
  let hits = 0;
  let misses = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const was = cache.stats();
    // alternate which side goes first, so neither always runs after the other
    if (i % 2 === 0) {
      statsMs.push(await timed(stats));
      pkMs.push(await timed(pk));
    } else {
      pkMs.push(await timed(pk));
      statsMs.push(await timed(stats));
    }
    const now = cache.stats();
    hits += now.hits - was.hits;
    misses += now.misses - was.misses;
    if (i % 4 === 0) {
      await invalidate();
      missMs.push(await timed(stats));
      computeMs.push(await timed(compute));
    }
  }
  const load = loadavg()[0]!.toFixed(1);
  const hitRate = hits / (hits + misses);
  const a = answer as StatsResponse | null;
  const destinations = TRIPS * DESTINATIONS;
  console.log(
    `GET /api/stats (${TRIPS} trips x ${DESTINATIONS} = ${destinations} destinations, ` +
      `${a?.countryCount} countries, answer ${bytes} bytes): p50 ${percentile(statsMs, 50).toFixed(3)} ms, ` +
      `p95 ${percentile(statsMs, 95).toFixed(3)} ms (cache hit rate ${(hitRate * 100).toFixed(1)}%); ` +
      `primary-key read p50 ${percentile(pkMs, 50).toFixed(3)} ms, p95 ${percentile(pkMs, 95).toFixed(3)} ms; ` +
      `on a miss p50 ${percentile(missMs, 50).toFixed(2)} ms, p95 ${percentile(missMs, 95).toFixed(2)} ms; ` +
      `figures alone p50 ${percentile(computeMs, 50).toFixed(2)} ms; load average ${load}`,
  );
  recordBudget({
    name: `GET /api/stats (${destinations} destinations) p95 / primary-key read p95`,
    figure: percentile(statsMs, 95),
    baseline: percentile(pkMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note: `${ROUNDS} interleaved rounds after ${WARMUP} warm-up; the baseline is pool.query of users by id on the same database; stats cache hit rate ${(hitRate * 100).toFixed(1)}%; answer ${bytes} bytes; load average ${load}`,
  });
  recordBudget({
    name: `GET /api/stats (${destinations} destinations) on a stats-cache miss (right after a write of one of the user's trips) p95 / primary-key read p95`,
    figure: percentile(missMs, 95),
    baseline: percentile(pkMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${percentile(missMs, 50).toFixed(2)} ms over ${missMs.length} reads: the rows read (summaries and stored countries), the figures computed, the answer stored`,
  });
  recordBudget({
    name: `GET /api/stats (${destinations} destinations): the figures' computation alone (statsOf) p95`,
    figure: percentile(computeMs, 95),
    baseline: percentile(pkMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${percentile(computeMs, 50).toFixed(2)} ms; no point is looked up: the countries were stored when the events were applied`,
  });
} finally {
  await svc.close();
  await db.drop();
}
