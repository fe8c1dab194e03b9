/**
 * `GET /api/friends` for a user with 200 friends x 20 trips x 5 destinations (3 photos and a
 * 100-character story preview each; the list names the first photo), side by side with an indexed primary-key read
 * (`SELECT ... FROM users WHERE id = $1`) on the same database in the same run.
 *
 *   node --import tsx bench/social/friends.bench.ts          (infra up: deploy/local/up)
 *
 * social is booted by its composition root on a fresh database; the read models are filled
 * directly in SQL (what its consumers would write). /api/friends is called as the gateway calls
 * it (Fastify inject, identity proof), interleaved with the baseline, round by round. Prints
 * p50/p95 of both, the ratio and the answer's size.
 */
import { IdentityHeaders } from '@wayfarer/contracts';
import { loadConfig } from '@wayfarer/service-kit';
import { dropDatabase, freshDatabase, testServiceEnv, throughGateway } from '@wayfarer/test-kit';
import { SocialEnv } from '../../services/social/src/config';
import { friendTrip } from '../../services/social/src/domain/trips';
import { SocialStore } from '../../services/social/src/store/social';
import { createService } from '../../services/social/src/service';
import { recordBudget } from '../lib/results';

const FRIENDS = 200;
const TRIPS = 20;
const DESTINATIONS = 5;
const WARMUP = 5;
const ROUNDS = 40;

const dbUrl = await freshDatabase('bench_social');
const env = loadConfig(SocialEnv, testServiceEnv({ DATABASE_URL: dbUrl }));
const svc = await createService(env, { skipHistory: true });
try {
  const me = 'bench-me';
  const story = 'x'.repeat(100) + '...';
  await svc.pool.query(
    `INSERT INTO users (id, name, search_key, picture)
     SELECT 'u' || i, 'Friend ' || i, 'friend ' || i, '/api/avatars/u' || i || '/a.webp'
       FROM generate_series(1, $1) i`,
    [FRIENDS],
  );
  await svc.pool.query(
    `INSERT INTO friendships (user_id, friend_id)
     SELECT $1, 'u' || i FROM generate_series(1, $2) i
     UNION ALL SELECT 'u' || i, $1 FROM generate_series(1, $2) i`,
    [me, FRIENDS],
  );
  // the rows social's trips consumer writes for each trip.created (domain/trips: the doc with
  // every photo, the list's summary with the first)
  const trips = [];
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
          storyPreview: story,
        })),
      });
      trips.push({ owner: `u${f}`, ageDays: t, ...trip });
    }
  }
  await svc.pool.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary)
     SELECT x.doc->>'_id', x.owner, now() - (x.age || ' days')::interval, x.doc, x.summary
       FROM unnest($1::text[], $2::int[], $3::json[], $4::json[]) AS x(owner, age, doc, summary)`,
    [
      trips.map((t) => t.owner),
      trips.map((t) => t.ageDays),
      trips.map((t) => JSON.stringify(t.doc)),
      trips.map((t) => JSON.stringify(t.summary)),
    ],
  );
  await svc.pool.query('ANALYZE');

  const app = throughGateway(svc.app);
  const friends = async () => {
    const res = await app.inject({
      url: '/api/friends',
      headers: { [IdentityHeaders.userId]: me },
    });
    if (res.statusCode !== 200) throw new Error(`GET /api/friends answered ${res.statusCode}`);
    return res.rawPayload.length;
  };
  // the query alone (PostgreSQL building and sending the text): where the route's time goes
  const store = new SocialStore(svc.pool);
  const query = () => store.friendsJson(me);
  const pk = async () => {
    const { rowCount } = await svc.pool.query('SELECT id, name, picture FROM users WHERE id = $1', [
      'u7',
    ]);
    if (rowCount !== 1) throw new Error('primary-key read found nothing');
  };

  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) {
    bytes = await friends();
    await query();
    await pk();
  }
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const friendsMs: number[] = [];
  const pkMs: number[] = [];
  const queryMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    friendsMs.push(await timed(friends));
    queryMs.push(await timed(query));
    pkMs.push(await timed(pk));
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  console.log(
    `GET /api/friends: ${FRIENDS} friends x ${TRIPS} trips x ${DESTINATIONS} destinations, ` +
      `answer ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MiB); ` +
      `p50 ${pct(friendsMs, 50).toFixed(2)} ms, p95 ${pct(friendsMs, 95).toFixed(2)} ms; ` +
      `primary-key read p50 ${pct(pkMs, 50).toFixed(3)} ms, p95 ${pct(pkMs, 95).toFixed(3)} ms`,
  );
  recordBudget({
    name: `GET /api/friends (${FRIENDS} friends x ${TRIPS} trips x ${DESTINATIONS} destinations) p95 / primary-key read p95`,
    figure: pct(friendsMs, 95),
    baseline: pct(pkMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note: `answer ${bytes} bytes; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; the baseline is pool.query of users by id`,
  });
  recordBudget({
    name: `GET /api/friends: its query alone (store.friendsJson) p95 / primary-key read p95`,
    figure: pct(queryMs, 95),
    baseline: pct(pkMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${pct(queryMs, 50).toFixed(2)} ms; the rest of the route's time is HTTP (inject, proof)`,
  });
  recordBudget({
    name: `GET /api/friends answer size (${FRIENDS} x ${TRIPS} x ${DESTINATIONS})`,
    figure: bytes,
    unit: 'bytes',
    budget: { none: true },
  });
} finally {
  await svc.close();
  await dropDatabase(dbUrl);
}
