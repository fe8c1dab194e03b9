import type { PoolClient } from '@wayfarer/service-kit/pg';

/** Friendships as social announced them: who a new trip is told to. */
export class FriendshipsStore {
  async add(client: PoolClient, a: string, b: string): Promise<void> {
    await client.query(
      `INSERT INTO friendships (user_id, friend_id) VALUES ($1, $2), ($2, $1) ON CONFLICT DO NOTHING`,
      [a, b],
    );
  }

  async remove(client: PoolClient, a: string, b: string): Promise<void> {
    await client.query(
      `DELETE FROM friendships WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)`,
      [a, b],
    );
  }

  async friendsOf(client: PoolClient, userId: string): Promise<string[]> {
    const { rows } = await client.query<{ friend_id: string }>(
      'SELECT friend_id FROM friendships WHERE user_id = $1',
      [userId],
    );
    return rows.map((r) => r.friend_id);
  }

  /** Erasure: every friendship of `userId`. */
  async eraseUser(client: PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM friendships WHERE user_id = $1 OR friend_id = $1', [userId]);
  }
}
