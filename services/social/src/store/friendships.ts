import { friendshipId } from '@wayfarer/contracts';
import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';
import type { PairState } from '../domain/requests';

/**
 * Friendships in PostgreSQL (both sides of each pair) and the pair's state as `add-friend`
 * decides from it. Every change of a pair runs in a transaction holding the pair's lock
 * (`lockPair`): two users asking each other at once make one friendship.
 */
export class FriendshipsStore {
  constructor(private readonly pool: Pool) {}

  /** Serialises every change of one pair (released at commit or rollback). */
  async lockPair(client: PoolClient, a: string, b: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `social:${friendshipId(a, b)}`,
    ]);
  }

  /** Where the caller stands with the addressee, read under the pair's lock. */
  async pairState(client: PoolClient, callerId: string, targetId: string): Promise<PairState> {
    const { rows } = await client.query<PairState>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE id = $2) AS "targetExists",
              EXISTS (SELECT 1 FROM friendships WHERE user_id = $1 AND friend_id = $2) AS friends,
              EXISTS (SELECT 1 FROM friend_requests WHERE to_id = $2 AND from_id = $1) AS requested,
              EXISTS (SELECT 1 FROM friend_requests WHERE to_id = $1 AND from_id = $2) AS "requestedBy"`,
      [callerId, targetId],
    );
    return rows[0]!;
  }

  /** Both sides become friends; the requests between them are answered (deleted). */
  async befriend(client: PoolClient, a: string, b: string): Promise<void> {
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
  }

  /** Ends a friendship (both sides); false when the two were not friends. */
  async remove(client: PoolClient, a: string, b: string): Promise<boolean> {
    const { rowCount } = await client.query(
      `DELETE FROM friendships
        WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)`,
      [a, b],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Whether the two are friends now (one primary-key read). */
  async areFriends(userId: string, friendId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM friendships WHERE user_id = $1 AND friend_id = $2',
      [userId, friendId],
    );
    return rowCount === 1;
  }

  /** Erasure: every friendship of `userId` (both sides); returns the friends they had. */
  async eraseUser(client: PoolClient, userId: string): Promise<string[]> {
    const { rows } = await client.query<{ friend_id: string }>(
      'DELETE FROM friendships WHERE user_id = $1 RETURNING friend_id',
      [userId],
    );
    await client.query('DELETE FROM friendships WHERE friend_id = $1', [userId]);
    return rows.map((r) => r.friend_id);
  }
}
