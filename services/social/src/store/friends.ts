import { DEFAULT_AVATAR, type Friend, type FriendSummary } from '@wayfarer/contracts';
import type { Pool } from '@wayfarer/service-kit/pg';

/**
 * One friend's JSON, built by PostgreSQL: id, name, picture and their trips newest first (each
 * trip's summary is stored as the API answers it), only those friends may see (the view
 * `trips_for_friends`, migration 007: no private trip, no tombstone). A friend auth has not announced
 * yet (events in flight) has an empty name and the default avatar. `fr` is the friendships row.
 */
const FRIEND_JSON = `
  json_build_object(
    'id', fr.friend_id,
    'name', coalesce(u.name, ''),
    'picture', coalesce(u.picture, '${DEFAULT_AVATAR}'),
    'trips', coalesce(
      (SELECT json_agg(t.summary ORDER BY t.created_at DESC, t.id)
         FROM trips_for_friends t WHERE t.owner_id = fr.friend_id),
      '[]'::json))`;

/** A friend as the account export holds them: id, name, friends since (ISO). */
export interface ExportedFriend {
  id: string;
  name: string;
  since: string;
}

/** What a user's friends look like to them: the lists, pages and details they read. */
export class FriendsStore {
  constructor(private readonly pool: Pool) {}

  /**
   * One page of `GET /api/friends` as JSON text, built by one query: at most `limit` friends
   * by id after `afterId` (keyset on the `friendships` primary key), each with their trips; the
   * text is sent as PostgreSQL wrote it, never parsed and re-encoded. `last` is the page's last
   * friend id when more friends follow (the next page starts after it), else null;
   * `friendIds` the page's friends (what the friends cache indexes it by).
   */
  async friendsPageJson(
    userId: string,
    afterId: string | null,
    limit: number,
  ): Promise<{ body: string; last: string | null; friendIds: string[] }> {
    const { rows } = await this.pool.query<{
      body: string;
      ids: string[] | null;
      last: string | null;
      more: boolean;
    }>(
      `WITH ids AS (
         SELECT friend_id FROM friendships
          WHERE user_id = $1 AND ($2::text IS NULL OR friend_id > $2)
          ORDER BY friend_id LIMIT $3 + 1),
       page AS (SELECT friend_id FROM ids ORDER BY friend_id LIMIT $3)
       SELECT coalesce(json_agg(f.friend ORDER BY f.id), '[]'::json)::text AS body,
              array_agg(f.id ORDER BY f.id) AS ids,
              max(f.id) AS last,
              (SELECT count(*) FROM ids) > $3 AS more
         FROM (SELECT fr.friend_id AS id, ${FRIEND_JSON} AS friend
                 FROM page fr LEFT JOIN users u ON u.id = fr.friend_id) f`,
      [userId, afterId, limit],
    );
    const row = rows[0]!;
    return { body: row.body, last: row.more ? row.last : null, friendIds: row.ids ?? [] };
  }

  /** One friend of `userId` with their trips; null when the two are not friends. */
  async friend(userId: string, friendId: string): Promise<Friend | null> {
    const { rows } = await this.pool.query<{ friend: Friend }>(
      `SELECT ${FRIEND_JSON} AS friend
         FROM friendships fr LEFT JOIN users u ON u.id = fr.friend_id
        WHERE fr.user_id = $1 AND fr.friend_id = $2`,
      [userId, friendId],
    );
    return rows[0]?.friend ?? null;
  }

  /**
   * One destination of a current friend's trip with every photo, as JSON text; null when the
   * two are not friends or the friend has no such destination friends may see (a private or
   * deleted trip's: `trips_for_friends`), so the caller cannot tell those from an unknown id.
   */
  async friendDestinationJson(
    userId: string,
    friendId: string,
    destinationId: string,
  ): Promise<string | null> {
    const { rows } = await this.pool.query<{ body: string }>(
      `SELECT d::text AS body
         FROM friendships fr
         JOIN trips_for_friends t ON t.owner_id = fr.friend_id
         CROSS JOIN LATERAL json_array_elements(t.doc->'destinations') d
        WHERE fr.user_id = $1 AND fr.friend_id = $2 AND d->>'_id' = $3
        LIMIT 1`,
      [userId, friendId, destinationId],
    );
    return rows[0]?.body ?? null;
  }

  /** The caller's friends by name, without trips. */
  async friendSummaries(userId: string): Promise<FriendSummary[]> {
    const { rows } = await this.pool.query<FriendSummary>(
      `SELECT fr.friend_id AS id, coalesce(u.name, '') AS name,
              coalesce(u.picture, $2) AS picture
         FROM friendships fr LEFT JOIN users u ON u.id = fr.friend_id
        WHERE fr.user_id = $1
        ORDER BY name, id`,
      [userId, DEFAULT_AVATAR],
    );
    return rows;
  }

  /** The caller's friends with since when, oldest friendship first (the account export). */
  async friendsSince(userId: string): Promise<ExportedFriend[]> {
    const { rows } = await this.pool.query<{ id: string; name: string; since: Date }>(
      `SELECT fr.friend_id AS id, coalesce(u.name, '') AS name, fr.created_at AS since
         FROM friendships fr LEFT JOIN users u ON u.id = fr.friend_id
        WHERE fr.user_id = $1
        ORDER BY fr.created_at, fr.friend_id`,
      [userId],
    );
    return rows.map((row) => ({ ...row, since: row.since.toISOString() }));
  }
}
