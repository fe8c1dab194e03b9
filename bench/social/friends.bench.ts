/**
 * `GET /api/friends` for a user with 200 friends x 20 trips x 5 destinations (3 photos and a
 * 100-character story preview each; the list names the first photo), side by side with an indexed primary-key read
 * (`SELECT ... FROM users WHERE id = $1`) on the same database in the same run.
 *
 *   node --import tsx bench/social/friends.bench.ts          (infra up: deploy/local/up)
 *
 * social is booted by its composition root on a fresh database; the read models are filled
 * directly in SQL (what its consumers would write). /api/friends is called as the gateway calls
 * it (Fastify inject, identity proof), interleaved with the baseline, round by round. The
 * budget row is the first page (what the screen shows first, `SocialLimits.friendsPageDefault`
 * friends), which the friends cache answers after the first read (as it does the screen's
 * refresh every 10 s while nothing changed); the hit rate is printed. Informative rows: the
 * first page on a cache miss (read right after a write that invalidated it: a friend on the
 * page renamed in SQL, its notification heard), how long that notification took from the
 * write's commit, the page's query alone, the time to read every page following
 * `x-next-cursor` (what the screen takes to show everything), and the sizes.
 */
import { FRIENDS_NEXT_CURSOR_HEADER, IdentityHeaders, SocialLimits } from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import { recordBudget } from '../lib/results';
import {
  cachesListening,
  FRIENDS_SHAPE,
  primaryKeyRead,
  startFriendsBench,
  writeAndWaitDropped,
} from './fixture';

const { friends: FRIENDS, trips: TRIPS, destinations: DESTINATIONS } = FRIENDS_SHAPE;
const WARMUP = 5;
const ROUNDS = 40;

// trip t of each friend created t days ago
const bench = await startFriendsBench('bench_social', (_f, t) => `${t} days`);
const { me } = bench;
const svc = bench.services[0]!;
try {
  const cache = svc.friendsPages.cache;
  if (!cache) throw new Error('the friends cache is off (FRIENDS_CACHE_MAX_BYTES=0)');
  // pages are stored only once the cache's LISTEN connection listens
  await cachesListening(svc, 'friends');

  const app = throughGateway(svc.app);
  const page = async (url: string) => {
    const res = await app.inject({ url, headers: { [IdentityHeaders.userId]: me } });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}`);
    const next = res.headers[FRIENDS_NEXT_CURSOR_HEADER];
    return { bytes: res.rawPayload.length, next: typeof next === 'string' ? next : null };
  };
  // the first page, as the screen asks for it
  const friends = async () => (await page('/api/friends')).bytes;
  // every page, one after the other, as the screen reads them in the background
  let pages = 0;
  let allBytes = 0;
  const allPages = async () => {
    let url: string | null = '/api/friends';
    pages = 0;
    allBytes = 0;
    while (url !== null) {
      const p = await page(url);
      pages++;
      allBytes += p.bytes;
      url = p.next === null ? null : `/api/friends?cursor=${encodeURIComponent(p.next)}`;
    }
  };
  // the first page's query alone (PostgreSQL building and sending the text; the store's own
  // query, not its cached pages)
  const friendsStore = svc.stores.friends;
  const query = () => friendsStore.friendsPageJson(me, null, SocialLimits.friendsPageDefault);
  // a write that changes the first page (u1 is on it: ids sort as text), then the wait until its
  // notification has dropped the page; returns ms from the commit's answer to the drop
  const invalidateFirstPage = () =>
    writeAndWaitDropped(svc, cache, `UPDATE users SET name = name WHERE id = 'u1'`);
  const pk = primaryKeyRead(svc.pool);

  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) {
    bytes = await friends();
    await query();
    await pk();
    await allPages();
  }
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const friendsMs: number[] = [];
  const pkMs: number[] = [];
  const queryMs: number[] = [];
  const allMs: number[] = [];
  const missMs: number[] = [];
  const notifyMs: number[] = [];
  // the budget row's reads: how many the cache answered
  let hits = 0;
  let misses = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const was = cache.stats();
    friendsMs.push(await timed(friends));
    const now = cache.stats();
    hits += now.hits - was.hits;
    misses += now.misses - was.misses;
    queryMs.push(await timed(query));
    pkMs.push(await timed(pk));
    notifyMs.push(await invalidateFirstPage());
    missMs.push(await timed(friends));
    if (i % 4 === 0) allMs.push(await timed(allPages));
  }
  const hitRate = hits / (hits + misses);
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  const per = SocialLimits.friendsPageDefault;
  console.log(
    `GET /api/friends first page (${per} of ${FRIENDS} friends x ${TRIPS} trips x ${DESTINATIONS} destinations), ` +
      `answer ${bytes} bytes (${(bytes / 1024).toFixed(0)} KiB); ` +
      `p50 ${pct(friendsMs, 50).toFixed(2)} ms, p95 ${pct(friendsMs, 95).toFixed(2)} ms; ` +
      `primary-key read p50 ${pct(pkMs, 50).toFixed(3)} ms, p95 ${pct(pkMs, 95).toFixed(3)} ms; ` +
      `every page (${pages} pages, ${(allBytes / 1024 / 1024).toFixed(2)} MiB) ` +
      `p50 ${pct(allMs, 50).toFixed(1)} ms, p95 ${pct(allMs, 95).toFixed(1)} ms`,
  );
  const stats = cache.stats();
  console.log(
    `friends cache: hit rate of the first-page reads ${(hitRate * 100).toFixed(1)}% ` +
      `(${hits} hits, ${misses} misses); cache miss (after an invalidating write) ` +
      `p50 ${pct(missMs, 50).toFixed(2)} ms, p95 ${pct(missMs, 95).toFixed(2)} ms; ` +
      `notification, commit answered -> page dropped, p50 ${pct(notifyMs, 50).toFixed(2)} ms, ` +
      `p95 ${pct(notifyMs, 95).toFixed(2)} ms; whole run: ${stats.hits} hits, ${stats.misses} ` +
      `misses, ${stats.refused} reads not stored (raced), ${stats.entries} entries, ` +
      `${(stats.bytes / 1024).toFixed(0)} KiB`,
  );
  recordBudget({
    name: `GET /api/friends first page (${per} of ${FRIENDS} friends x ${TRIPS} trips x ${DESTINATIONS} destinations) p95 / primary-key read p95`,
    figure: pct(friendsMs, 95),
    baseline: pct(pkMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note: `answer ${bytes} bytes; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; the baseline is pool.query of users by id; friends cache hit rate ${(hitRate * 100).toFixed(1)}% (the cache-miss row below is the read after a change)`,
  });
  recordBudget({
    name: `GET /api/friends first page on a friends-cache miss (right after a write that changed it) p95 / primary-key read p95`,
    figure: pct(missMs, 95),
    baseline: pct(pkMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${pct(missMs, 50).toFixed(2)} ms; the query, the answer, and the page stored for the next read`,
  });
  recordBudget({
    name: `friends cache: a write's notification, from its commit answered to the page dropped, p95`,
    figure: pct(notifyMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${pct(notifyMs, 50).toFixed(2)} ms, max ${Math.max(...notifyMs).toFixed(2)} ms over ${ROUNDS} writes: how long a cached page can be stale on a healthy LISTEN connection`,
  });
  recordBudget({
    name: `GET /api/friends first page: its query alone (stores.friends.friendsPageJson) p95 / primary-key read p95`,
    figure: pct(queryMs, 95),
    baseline: pct(pkMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${pct(queryMs, 50).toFixed(2)} ms; the rest of the route's time is HTTP (inject, proof)`,
  });
  recordBudget({
    name: `GET /api/friends every page one after the other (${pages} pages of ${per}, the screen's background load)`,
    figure: pct(allMs, 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${pct(allMs, 50).toFixed(1)} ms over ${allMs.length} reads; ${allBytes} bytes in all; every page answered by the friends cache (stored since the warm-up)`,
  });
  recordBudget({
    name: `GET /api/friends first page size (${per} of ${FRIENDS} x ${TRIPS} x ${DESTINATIONS})`,
    figure: bytes,
    unit: 'bytes',
    budget: { none: true },
  });
} finally {
  await bench.close();
}
