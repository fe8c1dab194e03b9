import type pg from 'pg';
import { checkout, withTransaction } from './pool';

export interface Migration {
  /** Unique, ordered id, e.g. '001_users'. Never change a migration once released. */
  id: string;
  sql: string;
}

const LOCK_KEY = 727_001; // advisory lock: one migrator at a time per database

/** Applies the migrations not yet applied, in id order, each in its own transaction. */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  const { client, release } = await checkout(pool);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         id text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ id: string }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.id} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.id);
    }
  } finally {
    // the lock ends with the session if the unlock cannot be sent: then the client is discarded
    const unlocked = await client
      .query('SELECT pg_advisory_unlock($1)', [LOCK_KEY])
      .then(() => undefined)
      .catch((err: Error) => err);
    release(unlocked);
  }
  return applied;
}

export { withTransaction };
