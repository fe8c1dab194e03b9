import type { StatsResponse } from '@wayfarer/contracts';
import type { Pool } from '@wayfarer/service-kit/pg';
import { destinationCountries, statsOf, type StatsRow } from '../domain/stats';
import type { FriendTripDoc } from '../domain/trips';
import type { FriendsCache } from './friends-cache';
import { CachedPagesStore } from './friends-pages';

/**
 * Whose trips a statistics answer counts: `own` every live trip of the user (private ones
 * included: only they read it), `friends` what friends may see (the view `trips_for_friends`).
 */
export type StatsView = 'own' | 'friends';

/** The rows of `userId`'s trips the view counts, oldest first (stable: the same answer twice). */
async function statsRows(pool: Pool, userId: string, view: StatsView): Promise<StatsRow[]> {
  const { rows } = await pool.query<StatsRow>(
    view === 'own'
      ? `SELECT summary, countries FROM trips
          WHERE owner_id = $1 AND NOT deleted ORDER BY created_at, id`
      : `SELECT summary, countries FROM trips_for_friends
          WHERE owner_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows;
}

/**
 * `GET /api/stats` and a friend's stats: the figures computed from the stored rows (countries
 * found when the events were applied), the answer's JSON kept in a `FriendsCache` of its own
 * under the user whose trips it counts, so the notification naming a trip's owner (migration
 * 004: any write of a trips row, create, edit, privacy, delete) drops both of that user's
 * answers. With no cache, computed every time.
 */
export class StatsStore extends CachedPagesStore {
  constructor(pool: Pool, cache: FriendsCache | null) {
    super(async ({ userId, afterId }) => {
      const rows = await statsRows(pool, userId, afterId === 'friends' ? 'friends' : 'own');
      const body = Buffer.from(JSON.stringify(statsOf(rows)), 'utf8');
      return { body, last: null, friendIds: [] };
    }, cache);
  }

  /** The answer's JSON text, encoded. */
  async json(userId: string, view: StatsView): Promise<Buffer> {
    return (await this.get({ userId, afterId: view, limit: 0 })).body;
  }

  async stats(userId: string, view: StatsView): Promise<StatsResponse> {
    return JSON.parse((await this.json(userId, view)).toString('utf8')) as StatsResponse;
  }
}

/**
 * Fills `countries` of the trips stored before migration 008 (in batches; each row only if it
 * still has none at the version read, so a trip event applied meanwhile wins). Returns how many
 * rows it filled. Run at start, before the consumers.
 */
export async function backfillCountries(pool: Pool, batch = 500): Promise<number> {
  let filled = 0;
  for (;;) {
    const { rows } = await pool.query<{ id: string; version: number; doc: FriendTripDoc }>(
      `SELECT id, version, doc FROM trips
        WHERE countries IS NULL AND doc IS NOT NULL
        ORDER BY id LIMIT $1`,
      [batch],
    );
    if (rows.length === 0) return filled;
    const { rowCount } = await pool.query(
      `UPDATE trips t SET countries = x.countries
         FROM unnest($1::text[], $2::int[], $3::json[]) AS x(id, version, countries)
        WHERE t.id = x.id AND t.version = x.version AND t.countries IS NULL`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.version),
        rows.map((r) => JSON.stringify(destinationCountries(r.doc.destinations))),
      ],
    );
    filled += rowCount ?? 0;
    // a row skipped here changed meanwhile: its event wrote its countries, it is not read again
    if (rows.length < batch) return filled;
  }
}
