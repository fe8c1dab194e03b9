/**
 * What social's in-process benches share: social booted by its composition root on a fresh
 * database, its read models filled in SQL as its consumers write them (`friendTrip`, the
 * `trips` rows), the wait for the caches' LISTEN connection, and the primary-key read every
 * budget is measured against.
 */
import { loadConfig } from '@wayfarer/service-kit';
import { createService, SocialEnv, type SocialService } from '@wayfarer/social';
import { friendTrip } from '@wayfarer/social/bench';
import { dropDatabase, freshDatabase, testServiceEnv } from '@wayfarer/test-kit';

type Pool = SocialService['pool'];

/** A fresh database named after `name`, and a way to drop it once the bench is done. */
export async function benchDatabase(name: string) {
  const url = await freshDatabase(name);
  return { url, drop: () => dropDatabase(url) };
}

/** social on `databaseUrl` (env overrides: a cache turned off), reading no earlier history. */
export function startSocial(databaseUrl: string, extraEnv: Record<string, string> = {}) {
  const env = loadConfig(SocialEnv, testServiceEnv({ DATABASE_URL: databaseUrl, ...extraEnv }));
  return createService(env, { skipHistory: true });
}

/** The friends benches' user: 200 friends with 20 trips of 5 destinations each. */
export const FRIENDS_SHAPE = { friends: 200, trips: 20, destinations: 5 } as const;

/** Users u1..u`count` and `me`'s friendship with each of them (both sides). */
async function seedFriends(pool: Pool, me: string, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO users (id, name, search_key, picture)
     SELECT 'u' || i, 'Friend ' || i, 'friend ' || i, '/api/avatars/u' || i || '/a.webp'
       FROM generate_series(1, $1) i`,
    [count],
  );
  await pool.query(
    `INSERT INTO friendships (user_id, friend_id)
     SELECT $1, 'u' || i FROM generate_series(1, $2) i
     UNION ALL SELECT 'u' || i, $1 FROM generate_series(1, $2) i`,
    [me, count],
  );
}

/**
 * `me`'s friends u1..u`friends`, each with `trips` trips of `destinations` destinations (3
 * photos and a 100-character story preview each), stored as social's trips consumer stores a
 * `trip.created` (the doc with every photo, the list's summary with the first); trip `t` of
 * friend `f` was created `ago(f, t)` before now (a PostgreSQL interval, e.g. `3 days`).
 */
export async function seedFriendsWithTrips(
  pool: Pool,
  me: string,
  shape: { friends: number; trips: number; destinations: number },
  ago: (friend: number, trip: number) => string,
): Promise<void> {
  await seedFriends(pool, me, shape.friends);
  const owners: string[] = [];
  const ages: string[] = [];
  const docs: string[] = [];
  const summaries: string[] = [];
  for (let f = 1; f <= shape.friends; f++) {
    for (let t = 1; t <= shape.trips; t++) {
      const tripId = `t${f}-${t}`;
      const trip = friendTrip({
        tripId,
        name: `Trip ${t}`,
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: Array.from({ length: shape.destinations }, (_, d) => ({
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
      ages.push(ago(f, t));
      docs.push(JSON.stringify(trip.doc));
      summaries.push(JSON.stringify(trip.summary));
    }
  }
  await pool.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary)
     SELECT x.doc->>'_id', x.owner, now() - x.age::interval, x.doc, x.summary
       FROM unnest($1::text[], $2::text[], $3::json[], $4::json[]) AS x(owner, age, doc, summary)`,
    [owners, ages, docs, summaries],
  );
  await pool.query('ANALYZE');
}

/** Waits until the caches' LISTEN connection listens (they store nothing before). */
export async function cachesListening(svc: SocialService, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!svc.friendsListener?.listening) {
    if (performance.now() > deadline) throw new Error(`the ${what} cache never listened`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The baseline of every budget: one indexed primary-key read of a user. */
export function primaryKeyRead(pool: Pool): () => Promise<void> {
  return async () => {
    const { rowCount } = await pool.query('SELECT id, name, picture FROM users WHERE id = $1', [
      'u7',
    ]);
    if (rowCount !== 1) throw new Error('primary-key read found nothing');
  };
}

/**
 * A friends bench's setup: social on a fresh database `name`, once per env of `envs` (one
 * instance by default), and `me` with the friends and trips of `FRIENDS_SHAPE` (trip `t` of
 * friend `f` created `ago(f, t)` before now). `close()` closes the instances and drops the
 * database.
 */
export async function startFriendsBench(
  name: string,
  ago: (friend: number, trip: number) => string,
  envs: readonly Record<string, string>[] = [{}],
) {
  const db = await benchDatabase(name);
  const services: SocialService[] = [];
  const close = async () => {
    for (const svc of services.reverse()) await svc.close();
    await db.drop();
  };
  const me = 'bench-me';
  try {
    for (const env of envs) services.push(await startSocial(db.url, env));
    await seedFriendsWithTrips(services[0]!.pool, me, FRIENDS_SHAPE, ago);
  } catch (err) {
    await close();
    throw err;
  }
  return { me, services, close };
}

/**
 * Runs `write` (a statement whose commit notifies the caches), then waits until its
 * notification has dropped an entry of `cache`; returns ms from the commit's answer to the drop.
 */
export async function writeAndWaitDropped(
  svc: SocialService,
  cache: { stats(): { invalidated: number } },
  write: string,
): Promise<number> {
  const before = cache.stats().invalidated;
  await svc.pool.query(write);
  const committed = performance.now();
  while (cache.stats().invalidated === before) {
    if (performance.now() - committed > 10_000) throw new Error('no notification after 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now() - committed;
}
