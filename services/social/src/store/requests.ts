import { DEFAULT_AVATAR, type FriendRequest } from '@wayfarer/contracts';
import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';

/** Friend requests waiting for their addressee, in PostgreSQL. */
export class FriendRequestsStore {
  constructor(private readonly pool: Pool) {}

  /** Requests addressed to the caller, oldest first. */
  async incoming(userId: string): Promise<FriendRequest[]> {
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

  async insert(client: PoolClient, request: { id: string; fromId: string; toId: string }) {
    await client.query('INSERT INTO friend_requests (to_id, from_id, id) VALUES ($1, $2, $3)', [
      request.toId,
      request.fromId,
      request.id,
    ]);
  }

  /** Whether `fromId` has asked `toId` (read under the pair's lock). */
  async exists(client: PoolClient, toId: string, fromId: string): Promise<boolean> {
    const { rowCount } = await client.query(
      'SELECT 1 FROM friend_requests WHERE to_id = $1 AND from_id = $2',
      [toId, fromId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Deletes `fromId`'s request to `toId`; false when there is none. */
  async delete(toId: string, fromId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM friend_requests WHERE to_id = $1 AND from_id = $2',
      [toId, fromId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Erasure: every request from or to `userId`. */
  async eraseUser(client: PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM friend_requests WHERE from_id = $1 OR to_id = $1', [userId]);
  }
}
