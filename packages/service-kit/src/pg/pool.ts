import pg from 'pg';

export type { Pool, PoolClient } from 'pg';

/**
 * A pool with sane limits. A lost connection never throws out of the pool: every client it
 * makes has an 'error' listener for its whole life, idle or checked out (pg emits 'error' on a
 * client whose connection drops, and an 'error' with no listener is an uncaught exception that
 * kills the process); the query in flight rejects with the error instead, and the client is
 * discarded when released.
 */
export function createPgPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  pool.on('error', () => {
    /* an idle client lost its connection: the pool drops it and the next checkout reconnects */
  });
  pool.on('connect', (client) => {
    client.on('error', () => {
      /* the connection of a client was lost: its query rejects, `checkout` discards it */
    });
  });
  return pool;
}

/** A client checked out of a pool by `checkout`. */
export interface CheckedOutClient {
  client: pg.PoolClient;
  /**
   * Gives the client back: kept for reuse, or discarded when `err` is given or its connection
   * failed while it was out.
   */
  release(err?: Error): void;
}

/**
 * Checks a client out of `pool`, listening for the loss of its connection while it is out (a
 * client between two queries has no other listener: PostgreSQL going away then would be an
 * uncaught exception), so that `release` discards a client whose connection failed.
 */
export async function checkout(pool: pg.Pool): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost ??= err;
  };
  client.on('error', onError);
  return {
    client,
    release(err) {
      client.off('error', onError);
      client.release(err ?? lost);
    },
  };
}

/**
 * Runs `fn` in a transaction, committing on success and rolling back on any error. A client
 * whose connection was lost, or that could not roll back, is discarded, not reused.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr;
    });
    throw err;
  } finally {
    release(broken);
  }
}

/**
 * Creates database `name` on the server of `adminUrl` if it does not exist, and returns the
 * URL of the new database. Used by local starts and tests; production databases are provisioned.
 */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid database name: ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } catch (err) {
        // another process created it between our check and create
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
