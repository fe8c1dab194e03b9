import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';
import { DuplicateEmailError } from '../domain/errors';

export interface User {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  avatarKey: string | null;
  createdAt: Date;
}

export type NewUser = Omit<User, 'createdAt'>;

interface UserRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  avatar_key: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, email, password_hash, avatar_key, created_at';

function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    passwordHash: row.password_hash,
    avatarKey: row.avatar_key,
    createdAt: row.created_at,
  };
}

/** The `users` table of auth's own PostgreSQL database. */
export class UsersStore {
  constructor(private readonly pool: Pool) {}

  async findByEmail(email: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>(
      `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findById(id: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [
      id,
    ]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async emailTaken(email: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM users WHERE lower(email) = lower($1)',
      [email],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Inserts inside the caller's transaction; a taken email raises DuplicateEmailError. */
  async insert(client: PoolClient, user: NewUser): Promise<void> {
    try {
      await client.query(
        `INSERT INTO users (id, name, email, password_hash, avatar_key) VALUES ($1, $2, $3, $4, $5)`,
        [user.id, user.name, user.email.toLowerCase(), user.passwordHash, user.avatarKey],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new DuplicateEmailError();
      throw err;
    }
  }

  /**
   * Changes the name and/or the avatar key inside the caller's transaction, the row locked
   * first: returns the user as it was (its old avatar key is the caller's to remove once
   * committed), or null when the user is gone.
   */
  async update(
    client: PoolClient,
    id: string,
    change: { name?: string; avatarKey?: string },
  ): Promise<{ before: User; after: User } | null> {
    const { rows } = await client.query<UserRow>(
      `SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!rows[0]) return null;
    const before = toUser(rows[0]);
    const after: User = {
      ...before,
      name: change.name ?? before.name,
      avatarKey: change.avatarKey ?? before.avatarKey,
    };
    await client.query('UPDATE users SET name = $2, avatar_key = $3 WHERE id = $1', [
      id,
      after.name,
      after.avatarKey,
    ]);
    return { before, after };
  }

  /** Sets a new password hash (the caller's transaction). */
  async setPasswordHash(client: PoolClient, id: string, passwordHash: string): Promise<void> {
    await client.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  /** Erases the user's row (the caller's transaction); false when it was already gone. */
  async delete(client: PoolClient, id: string): Promise<boolean> {
    const { rowCount } = await client.query('DELETE FROM users WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
