import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import { decodeTimeCursor, encodeTimeCursor } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { FriendsCache, FriendsPageRead } from './friends-cache';
import { CachedPagesStore } from './friends-pages';

/**
 * One feed item's JSON (contracts' FeedItem), built by PostgreSQL from the trip's stored list
 * summary (`t`) and its owner's row (`u`): the destinations without photos, the first photo of
 * the first destination that has one, the creation time in ISO 8601 (UTC, milliseconds: the
 * cursor's precision).
 */
const FEED_ITEM_JSON = `
  json_build_object(
    'friend', json_build_object(
      'id', t.owner_id,
      'name', coalesce(u.name, ''),
      'picture', coalesce(u.picture, '${DEFAULT_AVATAR}')),
    'trip', json_build_object(
      '_id', t.id,
      'name', t.summary->'name',
      'startDate', t.summary->'startDate',
      'endDate', t.summary->'endDate'),
    'destinations', coalesce(
      (SELECT json_agg((d::jsonb - 'photos')::json ORDER BY n)
         FROM json_array_elements(t.summary->'destinations') WITH ORDINALITY AS x(d, n)),
      '[]'::json),
    'firstPhoto',
      (SELECT d->'photos'->0
         FROM json_array_elements(t.summary->'destinations') WITH ORDINALITY AS x(d, n)
        WHERE json_array_length(d->'photos') > 0
        ORDER BY n LIMIT 1),
    'createdAt', to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * `GET /api/feed`'s page: the caller's current friends' shared trips (the view
 * `trips_for_friends`: not deleted, not private) newest first, after the cursor's (time, id), as JSON text; `last` is the next page's cursor
 * (null on the last page), `friendIds` every friend of the caller (any of them may change the
 * page: a new trip, a new name). One query: per friend the few newest entries of the
 * `trips_feed` index after the cursor (an index-only range), merged, then the page's rows read.
 */
export async function feedPageJson(
  pool: Pool,
  userId: string,
  after: { at: Date; id: string } | null,
  limit: number,
): Promise<{ body: string; last: { at: Date; id: string } | null; friendIds: string[] }> {
  const { rows } = await pool.query<{
    body: string;
    friend_ids: string[];
    more: boolean;
    last_at: Date | null;
    last_id: string | null;
  }>(
    `WITH f AS (SELECT friend_id FROM friendships WHERE user_id = $1),
     ids AS (
       SELECT x.id, x.created_at
         FROM f CROSS JOIN LATERAL (
           SELECT id, created_at FROM trips_for_friends
            WHERE owner_id = f.friend_id
              AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
            ORDER BY created_at DESC, id DESC
            LIMIT $4 + 1) x
        ORDER BY x.created_at DESC, x.id DESC
        LIMIT $4 + 1),
     page AS (SELECT id, created_at FROM ids ORDER BY created_at DESC, id DESC LIMIT $4),
     oldest AS (SELECT id, created_at FROM page ORDER BY created_at, id LIMIT 1)
     SELECT coalesce(
              (SELECT json_agg(${FEED_ITEM_JSON} ORDER BY t.created_at DESC, t.id DESC)
                 FROM page p JOIN trips_for_friends t ON t.id = p.id LEFT JOIN users u ON u.id = t.owner_id),
              '[]'::json)::text AS body,
            coalesce((SELECT array_agg(friend_id) FROM f), '{}') AS friend_ids,
            (SELECT count(*) FROM ids) > $4 AS more,
            (SELECT created_at FROM oldest) AS last_at,
            (SELECT id FROM oldest) AS last_id`,
    [userId, after?.at ?? null, after?.id ?? null, limit],
  );
  const row = rows[0]!;
  const last =
    row.more && row.last_at !== null && row.last_id !== null
      ? { at: row.last_at, id: row.last_id }
      : null;
  return { body: row.body, last, friendIds: row.friend_ids };
}

/**
 * The pages of `GET /api/feed`, cached like `/api/friends`' (`FEED_CACHE_MAX_BYTES`): a page is
 * kept under its user and every friend of theirs, so a friend's new, changed or deleted trip,
 * a friend's new name or picture, or a friendship made or ended drops it (migration 004's
 * notifications). The key's `afterId` is the cursor as the client sent it; the page's `last`
 * the next cursor, encoded.
 */
export class FeedStore extends CachedPagesStore {
  constructor(pool: Pool, cache: FriendsCache | null) {
    super(async (key): Promise<FriendsPageRead> => {
      const after = key.afterId === null ? null : decodeTimeCursor(key.afterId);
      const page = await feedPageJson(pool, key.userId, after, key.limit);
      return {
        body: Buffer.from(`{"items":${page.body},"nextCursor":${cursorJson(page.last)}}`, 'utf8'),
        last: page.last ? encodeTimeCursor(page.last) : null,
        friendIds: page.friendIds,
      };
    }, cache);
  }
}

const cursorJson = (last: { at: Date; id: string } | null): string =>
  last ? JSON.stringify(encodeTimeCursor(last)) : 'null';
