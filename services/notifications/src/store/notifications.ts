import {
  NotificationLimits,
  type Notification,
  type NotificationKind,
  type NotificationPushMessage,
} from '@wayfarer/contracts';
import type { TimeCursor } from '@wayfarer/service-kit';
import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';
import {
  keptSince,
  notificationOf,
  type NotificationDraft,
  type StoredNotification,
} from '../domain/notifications';

/** A notification row with its actor (LEFT JOIN users), as the queries below select it. */
interface Row {
  id: string;
  kind: NotificationKind;
  actor_id: string;
  actor_name: string | null;
  actor_picture: string | null;
  subject: Record<string, string>;
  created_at: Date;
  read: boolean;
}

/**
 * Text as PostgreSQL can hold it: without U+0000 (neither text nor jsonb can). Events from
 * before the producers refused it (trips' history holds trip names with NUL) would otherwise
 * fail their transaction on every retry and hold back every later event of their topic.
 */
export const storable = (text: string): string => text.replaceAll('\u0000', '');

const stored = (r: Row): StoredNotification => ({
  id: r.id,
  kind: r.kind,
  actorId: r.actor_id,
  actorName: r.actor_name,
  actorPicture: r.actor_picture,
  subject: r.subject,
  createdAt: r.created_at,
  read: r.read,
});

/** Every read is bounded to the kept window, so a notification past 90 days is never shown. */
const UNREAD = `SELECT count(*)::int AS unread FROM notifications
                 WHERE user_id = $1 AND NOT read AND created_at > $2`;

/**
 * The notifications of each user, in PostgreSQL: what the routes read and mark, the bounds
 * (90 days, 500 per user), and the consumers' writes (run in their transactions, taking the
 * client).
 */
export class NotificationsStore {
  constructor(private readonly pool: Pool) {}

  /**
   * One page of `userId`'s notifications newest first, after `cursor` (the last item of the
   * page before), with their unread count; `last` is the next page's cursor (null at the end).
   */
  async page(
    userId: string,
    cursor: TimeCursor | null,
    limit: number,
    now: Date,
  ): Promise<{ notifications: Notification[]; unread: number; last: TimeCursor | null }> {
    const since = keptSince(now);
    const [page, unread] = await Promise.all([
      this.pool.query<Row>(
        `SELECT n.id, n.kind, n.actor_id, u.name AS actor_name, u.picture AS actor_picture,
                n.subject, n.created_at, n.read
           FROM notifications n LEFT JOIN users u ON u.id = n.actor_id
          WHERE n.user_id = $1 AND n.created_at > $2
            AND ($3::timestamptz IS NULL OR (n.created_at, n.id) < ($3, $4::uuid))
          ORDER BY n.created_at DESC, n.id DESC
          LIMIT $5`,
        [userId, since, cursor?.at ?? null, cursor?.id ?? null, limit + 1],
      ),
      this.unread(userId, now),
    ]);
    const rows = page.rows.slice(0, limit);
    const lastRow = page.rows.length > limit ? rows[rows.length - 1] : undefined;
    return {
      notifications: rows.map((r) => notificationOf(stored(r))),
      unread,
      last: lastRow ? { at: lastRow.created_at, id: lastRow.id } : null,
    };
  }

  async unread(userId: string, now: Date): Promise<number> {
    const { rows } = await this.pool.query<{ unread: number }>(UNREAD, [userId, keptSince(now)]);
    return rows[0]!.unread;
  }

  /**
   * Marks `userId`'s notifications read: those of `ids` that are theirs (any other id changes
   * nothing), or all of them; returns their unread count after it.
   */
  async markRead(userId: string, ids: readonly string[] | 'all', now: Date): Promise<number> {
    if (ids === 'all') {
      await this.pool.query(
        'UPDATE notifications SET read = true WHERE user_id = $1 AND NOT read',
        [userId],
      );
    } else {
      await this.pool.query(
        `UPDATE notifications SET read = true
          WHERE user_id = $1 AND id = ANY($2::uuid[]) AND NOT read`,
        [userId, ids],
      );
    }
    return this.unread(userId, now);
  }

  /**
   * The bound of `NotificationLimits.keepPerUser`: each of `userIds` keeps their newest ones and
   * loses the rest. Returns how many were dropped.
   */
  async trim(userIds: readonly string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const { rowCount } = await this.pool.query(
      `DELETE FROM notifications n
        USING (SELECT r.user_id, c.created_at, c.id
                 FROM unnest($1::text[]) AS r(user_id)
                 -- the first one beyond the bound: it and every older one go
                 CROSS JOIN LATERAL (
                   SELECT created_at, id FROM notifications
                    WHERE user_id = r.user_id
                    ORDER BY created_at DESC, id DESC
                   OFFSET $2 LIMIT 1) c) cut
        WHERE n.user_id = cut.user_id AND (n.created_at, n.id) <= (cut.created_at, cut.id)`,
      [[...new Set(userIds)], NotificationLimits.keepPerUser],
    );
    return rowCount ?? 0;
  }

  /** The 90-day bound: deletes up to `batchSize` notifications older than it; how many. */
  async pruneOld(now: Date, batchSize: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM notifications WHERE id IN (
         SELECT id FROM notifications WHERE created_at <= $1 ORDER BY created_at LIMIT $2)`,
      [keptSince(now), batchSize],
    );
    return rowCount ?? 0;
  }

  /**
   * Of two users, the one who received a friend request from the other (a `friend_request`
   * notification), or null: who accepted, for a `friendship.created` without `by`.
   */
  async requestReceiver(
    client: PoolClient,
    pair: readonly [string, string],
  ): Promise<string | null> {
    const { rows } = await client.query<{ user_id: string }>(
      `SELECT user_id FROM notifications
        WHERE kind = 'friend_request'
          AND ((user_id = $1 AND actor_id = $2) OR (user_id = $2 AND actor_id = $1))
        ORDER BY created_at DESC LIMIT 1`,
      [pair[0], pair[1]],
    );
    return rows[0]?.user_id ?? null;
  }

  /** `userId` answered `actorId`'s friend request: its notification is read. */
  async markRequestAnswered(client: PoolClient, userId: string, actorId: string): Promise<void> {
    await client.query(
      `UPDATE notifications SET read = true
        WHERE user_id = $1 AND actor_id = $2 AND kind = 'friend_request' AND NOT read`,
      [userId, actorId],
    );
  }

  /** A trip deleted or made private: its `friend_trip` notifications go. */
  async removeTrip(client: PoolClient, tripId: string): Promise<void> {
    await client.query(
      `DELETE FROM notifications WHERE kind = 'friend_trip' AND subject->>'tripId' = $1`,
      [tripId],
    );
  }

  /** A trip renamed: its `friend_trip` notifications say the new name. */
  async renameTrip(client: PoolClient, tripId: string, name: string): Promise<void> {
    await client.query(
      `UPDATE notifications SET subject = jsonb_set(subject, '{name}', to_jsonb($2::text))
        WHERE kind = 'friend_trip' AND subject->>'tripId' = $1 AND subject->>'name' <> $2`,
      [tripId, storable(name)],
    );
  }

  /**
   * Stores `draft` for each recipient both users of which are known (auth announced them: an
   * erased user is not, so nothing names them after their erasure), once per event and recipient
   * (a replay makes none). Returns what to push: each new notification with its actor and the
   * recipient's unread count with it.
   */
  async insert(
    client: PoolClient,
    draft: NotificationDraft,
    now: Date,
  ): Promise<NotificationPushMessage[]> {
    if (draft.recipients.length === 0) return [];
    const { rows } = await client.query<Row & { user_id: string; unread: number }>(
      `WITH ins AS (
         INSERT INTO notifications (id, user_id, kind, actor_id, subject, created_at, event_id)
         SELECT gen_random_uuid(), r.id, $2, a.id, $3::jsonb, $4, $5
           FROM unnest($1::text[]) AS x(id)
           JOIN users r ON r.id = x.id
           JOIN users a ON a.id = $6
         ON CONFLICT (event_id, user_id) DO NOTHING
         RETURNING id, user_id, kind, actor_id, subject, created_at, read)
       SELECT ins.*, a.name AS actor_name, a.picture AS actor_picture,
              -- the statement does not see its own inserts: + 1 for the new one
              (SELECT count(*)::int FROM notifications c
                WHERE c.user_id = ins.user_id AND NOT c.read AND c.created_at > $7) + 1 AS unread
         FROM ins JOIN users a ON a.id = ins.actor_id`,
      [
        draft.recipients,
        draft.kind,
        JSON.stringify(draft.subject, (_key, value: unknown) =>
          typeof value === 'string' ? storable(value) : value,
        ),
        draft.createdAt,
        draft.eventId,
        draft.actorId,
        keptSince(now),
      ],
    );
    return rows.map((r) => ({
      userId: r.user_id,
      notification: notificationOf(stored(r)),
      unread: r.unread,
    }));
  }

  /** Erasure: `userId`'s notifications and every notification they acted in. */
  async eraseUser(client: PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM notifications WHERE user_id = $1 OR actor_id = $1', [userId]);
  }
}
