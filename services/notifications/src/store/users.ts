import type { PoolClient } from '@wayfarer/service-kit/pg';
import { storable } from './notifications';

/** The users read model (auth's events): each actor's name and picture. */
export class UsersStore {
  /** A user as auth announced them (registered or updated): the row as announced. */
  async upsert(
    client: PoolClient,
    user: { userId: string; name: string; profilePicture: string },
  ): Promise<void> {
    await client.query(
      `INSERT INTO users (id, name, picture) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, picture = EXCLUDED.picture`,
      [user.userId, storable(user.name), storable(user.profilePicture)],
    );
  }

  /** Erasure: the user's row. */
  async erase(client: PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM users WHERE id = $1', [userId]);
  }
}
