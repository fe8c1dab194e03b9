import { afterAll, beforeAll } from 'vitest';
import { dropDatabase, freshDatabase } from '@wayfarer/test-kit';
import { HttpError } from '../src/errors';
import { jsonFingerprint, type IdempotencyClaim } from '../src/idempotency';
import { createPgPool, idempotencyMigrations, migrate, type Migration, type Pool } from '../src/pg';

/** The 4xx an HttpError-throwing call ends with. */
export async function statusOf(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
  } catch (err) {
    if (err instanceof HttpError) return err.statusCode;
    throw err;
  }
  return 0;
}

/** The claim of `owner`'s key for a JSON `POST /api/things` of `body`. */
export const thingClaim = (owner: string, key: string, body: unknown): IdempotencyClaim => ({
  owner,
  key,
  fingerprint: jsonFingerprint({ method: 'POST', url: '/api/things', body }),
});

/**
 * A fresh PostgreSQL database for this describe block, with the keys' table and a `things`
 * table (`migrations` first); `pool()` once `beforeAll` ran, `count(owner)` of their things.
 */
export function thingsDatabase(name: string, migrations: readonly Migration[] = []) {
  let url = '';
  let pool: Pool | undefined;
  beforeAll(async () => {
    url = await freshDatabase(name);
    pool = createPgPool(url);
    await migrate(pool, [
      ...migrations,
      ...idempotencyMigrations,
      {
        id: '900_things',
        sql: 'CREATE TABLE things (id uuid PRIMARY KEY, owner_id text NOT NULL, name text NOT NULL)',
      },
    ]);
  });
  afterAll(async () => {
    await pool?.end();
    if (url) await dropDatabase(url);
  });
  const get = (): Pool => pool!;
  return {
    pool: get,
    count: async (owner: string) =>
      (
        await get().query<{ n: number }>(
          'SELECT count(*)::int AS n FROM things WHERE owner_id = $1',
          [owner],
        )
      ).rows[0]!.n,
  };
}
