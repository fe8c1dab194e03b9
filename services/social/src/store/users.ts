import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { searchKey } from '../domain/search';

/**
 * The users read model (auth's events), written in the consumer's transaction (the one
 * recording the event as processed): each write is idempotent and order-safe on its own.
 */
export class UsersStore {
  /** A user as auth announced them (registered or updated); announced again, the same row. */
  async upsert(
    client: PoolClient,
    user: { userId: string; name: string; profilePicture: string },
  ): Promise<void> {
    await client.query(
      `INSERT INTO users (id, name, search_key, picture) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE
         SET name = EXCLUDED.name, search_key = EXCLUDED.search_key, picture = EXCLUDED.picture`,
      [user.userId, user.name, searchKey(user.name), user.profilePicture || DEFAULT_AVATAR],
    );
  }

  /** Erasure: the user's row and the idempotency keys of their requests. */
  async erase(client: PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM idempotency_keys WHERE owner_id = $1', [userId]);
    await client.query('DELETE FROM users WHERE id = $1', [userId]);
  }
}
