import { randomUUID } from 'node:crypto';
import {
  DEFAULT_AVATAR,
  friendshipId,
  SocialLimits,
  type Friend,
  type FriendRequest,
  type FriendSummary,
  type SearchUser,
} from '@wayfarer/contracts';
import type {
  AccessFences,
  IdempotencyClaim,
  IdempotentOutcome,
  RecordedAnswer,
} from '@wayfarer/service-kit';
import {
  idempotentTransaction,
  withTransaction,
  type Pool,
  type PoolClient,
} from '@wayfarer/service-kit/pg';
import { decideAddFriend, type AddFriendDecision, type PairState } from '../domain/requests';
import {
  enqueueFriendRequested,
  enqueueFriendshipCreated,
  enqueueFriendshipRemoved,
} from '../events/outbox';

/**
 * One friend's JSON, built by PostgreSQL: id, name, picture and their trips newest first (each
 * trip's summary is stored as the API answers it), only those friends may see (the view
 * `trips_for_friends`, migration 007: no private trip, no tombstone). A friend auth has not announced yet (events in
 * flight) has an empty name and the default avatar. `fr` is the friendships row.
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

/** A friend as the account export holds them (issue 22): id, name, friends since (ISO). */
export interface ExportedFriend {
  id: string;
  name: string;
  since: string;
}

/**
 * Friend requests and friendships in PostgreSQL. Every change of a pair runs under the pair's
 * transaction-scoped advisory lock (two users asking each other at once make one friendship)
 * and writes its event to the outbox in the same transaction; a change that changes nothing
 * writes none.
 */
export class SocialStore {
  constructor(
    private readonly pool: Pool,
    /**
     * Access fences (Redis): an unfriending writes its pair's before it commits, so trips,
     * journal and chat refuse the pair at once; search leaves closed accounts out.
     */
    private readonly fences: Pick<
      AccessFences,
      'endFriendship' | 'liftEndedFriendship' | 'closedAmong'
    >,
    /**
     * Called after a commit that changed friendships, with both users: the friends cache drops
     * their pages at once, so whoever made the change reads it (other instances hear of it
     * through PostgreSQL's notification, store/friends-pages.ts).
     */
    private readonly friendshipsChanged: (userIds: readonly string[]) => void = () => undefined,
  ) {}

  /**
   * `add-friend`: decided by the domain from the pair's state, then applied, and answered by
   * `answer` (which throws for a refusal: nothing is written). With a `claim` (the request's
   * `Idempotency-Key`) the key and the answer are recorded in the same transaction, and a retry
   * with the key is answered the first answer, changing nothing (service-kit
   * `idempotentTransaction`): a request sent once stays sent once, even if it was declined or
   * accepted since.
   */
  async addFriend(
    callerId: string,
    targetId: string,
    claim: IdempotencyClaim | null,
    answer: (decision: AddFriendDecision) => RecordedAnswer,
  ): Promise<IdempotentOutcome<AddFriendDecision>> {
    if (callerId === targetId) {
      const decision = decideAddFriend(callerId, targetId, noPair);
      return { replayed: false, answer: answer(decision), value: decision };
    }
    const outcome = await idempotentTransaction(this.pool, claim, async (client) => {
      await lockPair(client, callerId, targetId);
      const decision = decideAddFriend(
        callerId,
        targetId,
        await pairState(client, callerId, targetId),
      );
      const answered = answer(decision);
      if (decision.kind === 'request') {
        const requestId = randomUUID();
        await client.query('INSERT INTO friend_requests (to_id, from_id, id) VALUES ($1, $2, $3)', [
          targetId,
          callerId,
          requestId,
        ]);
        await enqueueFriendRequested(client, {
          requestId,
          fromUserId: callerId,
          toUserId: targetId,
        });
      } else if (decision.kind === 'befriend') {
        await befriend(client, callerId, targetId);
      }
      return { answer: answered, value: decision };
    });
    if (!outcome.replayed && outcome.value.kind === 'befriend') {
      this.friendshipsChanged([callerId, targetId]);
    }
    return outcome;
  }

  /**
   * The addressee accepts `fromId`'s request: false when there is no such request to the
   * caller (one addressed to someone else included), nothing changed.
   */
  async accept(callerId: string, fromId: string): Promise<boolean> {
    const accepted = await withTransaction(this.pool, async (client) => {
      await lockPair(client, callerId, fromId);
      const { rowCount } = await client.query(
        'SELECT 1 FROM friend_requests WHERE to_id = $1 AND from_id = $2',
        [callerId, fromId],
      );
      if (!rowCount) return false;
      await befriend(client, callerId, fromId);
      return true;
    });
    if (accepted) this.friendshipsChanged([callerId, fromId]);
    return accepted;
  }

  /** The addressee declines `fromId`'s request (deleted, no event); false when there is none. */
  async decline(callerId: string, fromId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM friend_requests WHERE to_id = $1 AND from_id = $2',
      [callerId, fromId],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * Ends a friendship (both sides); false when the two are not friends. Its fence is written
   * before the commit, with the removal event's time: once this returns, the services deciding
   * from their projection refuse the pair, whatever Kafka does. No fence, no unfriending (a
   * 503, nothing changed). A commit that fails after the fence lifts it again when the pair is
   * still friends here (known only when PostgreSQL answers; otherwise it stays: the safe side).
   */
  async unfriend(callerId: string, friendId: string): Promise<boolean> {
    let fencedAt: string | null = null;
    let removed: boolean;
    try {
      removed = await withTransaction(this.pool, async (client) => {
        await lockPair(client, callerId, friendId);
        const { rowCount } = await client.query(
          `DELETE FROM friendships
            WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)`,
          [callerId, friendId],
        );
        if (!rowCount) return false;
        const { occurredAt } = await enqueueFriendshipRemoved(client, callerId, friendId);
        await this.fences.endFriendship(callerId, friendId, occurredAt);
        fencedAt = occurredAt;
        return true;
      });
    } catch (err) {
      if (fencedAt !== null && (await this.areFriends(callerId, friendId).catch(() => false))) {
        await this.fences.liftEndedFriendship(callerId, friendId, fencedAt).catch(() => undefined);
      }
      throw err;
    }
    if (removed) this.friendshipsChanged([callerId, friendId]);
    return removed;
  }

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
  /** Whether the two are friends now (one primary-key read). */
  async areFriends(userId: string, friendId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM friendships WHERE user_id = $1 AND friend_id = $2',
      [userId, friendId],
    );
    return rowCount === 1;
  }

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

  /** Requests addressed to the caller, oldest first. */
  async requests(userId: string): Promise<FriendRequest[]> {
    const { rows } = await this.pool.query<FriendRequest>(
      `SELECT r.from_id AS "_id", coalesce(u.name, '') AS name,
              coalesce(u.picture, $2) AS picture
         FROM friend_requests r LEFT JOIN users u ON u.id = r.from_id
        WHERE r.to_id = $1
        ORDER BY r.created_at, r.from_id`,
      [userId, DEFAULT_AVATAR],
    );
    return rows;
  }

  /**
   * Users whose search key matches `pattern` (domain/search: a LIKE pattern with `\` as its
   * escape), by name, at most SocialLimits.searchResultsMax, leaving out the caller and their
   * friends; each with where the caller stands with them.
   */
  async search(userId: string, pattern: string): Promise<SearchUser[]> {
    const rows = await this.searchRows(userId, pattern);
    // a closed account leaves search at once, before its user.deleted arrives
    const closed = await this.fences.closedAmong(rows.map((r) => r._id));
    return closed.size === 0 ? rows : rows.filter((r) => !closed.has(r._id));
  }

  private async searchRows(userId: string, pattern: string): Promise<SearchUser[]> {
    const { rows } = await this.pool.query<SearchUser>(
      `SELECT u.id AS "_id", u.name, u.picture,
              CASE
                WHEN EXISTS (SELECT 1 FROM friend_requests r
                              WHERE r.to_id = u.id AND r.from_id = $1) THEN 'pending'
                WHEN EXISTS (SELECT 1 FROM friend_requests r
                              WHERE r.to_id = $1 AND r.from_id = u.id) THEN 'incoming'
                ELSE 'none'
              END AS status
         FROM users u
        WHERE u.search_key LIKE $2 ESCAPE '\\'
          AND u.id <> $1
          AND NOT EXISTS (SELECT 1 FROM friendships f WHERE f.user_id = $1 AND f.friend_id = u.id)
        ORDER BY u.name, u.id
        LIMIT $3`,
      [userId, pattern, SocialLimits.searchResultsMax],
    );
    return rows;
  }
}

const noPair: PairState = {
  targetExists: false,
  friends: false,
  requested: false,
  requestedBy: false,
};

/** Serialises every change of one pair (released at commit or rollback). */
async function lockPair(client: PoolClient, a: string, b: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `social:${friendshipId(a, b)}`,
  ]);
}

async function pairState(
  client: PoolClient,
  callerId: string,
  targetId: string,
): Promise<PairState> {
  const { rows } = await client.query<PairState>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE id = $2) AS "targetExists",
            EXISTS (SELECT 1 FROM friendships WHERE user_id = $1 AND friend_id = $2) AS friends,
            EXISTS (SELECT 1 FROM friend_requests WHERE to_id = $2 AND from_id = $1) AS requested,
            EXISTS (SELECT 1 FROM friend_requests WHERE to_id = $1 AND from_id = $2) AS "requestedBy"`,
    [callerId, targetId],
  );
  return rows[0]!;
}

/**
 * Both sides become friends; the requests between them are answered (deleted). `a` is the one
 * whose answer made it (the caller), named in `friendship.created`.
 */
async function befriend(client: PoolClient, a: string, b: string): Promise<void> {
  await client.query(
    `DELETE FROM friend_requests
      WHERE (to_id = $1 AND from_id = $2) OR (to_id = $2 AND from_id = $1)`,
    [a, b],
  );
  await client.query(
    `INSERT INTO friendships (user_id, friend_id) VALUES ($1, $2), ($2, $1)
     ON CONFLICT DO NOTHING`,
    [a, b],
  );
  await enqueueFriendshipCreated(client, a, b);
}
