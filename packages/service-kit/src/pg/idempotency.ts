import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { IdempotencyLimits } from '@wayfarer/contracts';
import { HttpError } from '../errors';
import {
  replayOf,
  type Created,
  type IdempotencyClaim,
  type IdempotentOutcome,
  type RecordedAnswer,
  type RecordedClaim,
} from '../idempotency';
import type { Migration } from './migrate';
import { withTransaction } from './pool';

/**
 * The keys of idempotent creates, one row per (user, key), written in the create's own
 * transaction; pruned after `IdempotencyLimits.retentionMs` by the outbox relay
 * (`pruneOutboxHistory`), and taken over by a new create once expired even if not pruned yet.
 */
export const idempotencyKeysMigration: Migration = {
  id: '000_idempotency_keys',
  sql: `
    CREATE TABLE IF NOT EXISTS idempotency_keys (
      owner_id    text NOT NULL,
      key         text NOT NULL,
      fingerprint text NOT NULL,
      status      integer NOT NULL,
      body        text NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner_id, key)
    );
    CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
  `,
};

/** Spread into the migrations of a service whose creates take an `Idempotency-Key`. */
export const idempotencyMigrations: readonly Migration[] = [idempotencyKeysMigration];

const RETENTION_SECONDS = IdempotencyLimits.retentionMs / 1000;

/** The live record of a key (an expired one counts as none). */
async function recorded(
  db: pg.Pool | pg.PoolClient,
  claim: IdempotencyClaim,
): Promise<RecordedClaim | null> {
  const { rows } = await db.query<RecordedClaim>(
    `SELECT fingerprint, status, body FROM idempotency_keys
      WHERE owner_id = $1 AND key = $2 AND created_at >= now() - make_interval(secs => $3)`,
    [claim.owner, claim.key, RETENTION_SECONDS],
  );
  return rows[0] ?? null;
}

/**
 * Runs a create in one transaction with its key, so the key is recorded if and only if the
 * create commits, and answers a retry with the first answer:
 *
 * 1. a key already recorded (and not expired) is answered from its record: the same status and
 *    body, or a 422 when the request's fingerprint differs; nothing runs;
 * 2. otherwise the transaction inserts the key's row first, then runs `create` with its client,
 *    then records the answer, then commits. A concurrent request with the same key blocks on
 *    that row's insert until the first commits (then it answers from its record, nothing
 *    created) or rolls back (then it creates). So same-key requests in flight wait for the
 *    first; none ever creates twice, and no 409 is needed.
 *
 * A create that throws (a 4xx, a 5xx) rolls its key back with it: the key was not used, and a
 * retry runs again. Without a claim (no key sent) `create` simply runs in a transaction.
 */
export async function idempotentTransaction<T>(
  pool: pg.Pool,
  claim: IdempotencyClaim | null,
  create: (client: pg.PoolClient) => Promise<Created<T>>,
): Promise<IdempotentOutcome<T>> {
  if (claim === null) {
    return { replayed: false, ...(await withTransaction(pool, create)) };
  }
  const first = await recorded(pool, claim);
  if (first) return { replayed: true, answer: replayOf(first, claim) };
  return withTransaction(pool, async (client): Promise<IdempotentOutcome<T>> => {
    // waits here while another transaction holds the same key's row
    const { rowCount } = await client.query(
      `INSERT INTO idempotency_keys AS k (owner_id, key, fingerprint, status, body)
       VALUES ($1, $2, $3, 0, '')
       ON CONFLICT (owner_id, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, status = 0, body = '', created_at = now()
        WHERE k.created_at < now() - make_interval(secs => $4)`,
      [claim.owner, claim.key, claim.fingerprint, RETENTION_SECONDS],
    );
    if (!rowCount) {
      // a live record committed meanwhile (read with a fresh snapshot): this one creates nothing
      const winner = await recorded(client, claim);
      if (!winner) throw new HttpError(409, 'This request is being processed; retry it.');
      return { replayed: true, answer: replayOf(winner, claim) };
    }
    const made = await create(client);
    await client.query(
      'UPDATE idempotency_keys SET status = $3, body = $4 WHERE owner_id = $1 AND key = $2',
      [claim.owner, claim.key, made.answer.status, made.answer.body],
    );
    return { replayed: false, ...made };
  });
}

/** The transaction of the keyed use case running (`idempotentUseCase`), with its pool. */
const useCaseTransactions = new AsyncLocalStorage<{ pool: pg.Pool; client: pg.PoolClient }>();

/**
 * Runs a use case as one keyed request, the one boundary of idempotency: no route builds a
 * claim's transaction and no store takes a client from it. The use case runs inside
 * `idempotentTransaction` (the key's row first, its answer last, one transaction), in a scope
 * (AsyncLocalStorage) that its stores' `inTransaction(pool, fn)` joins: every write of the use
 * case on `pool` is in the key's transaction, so the key is recorded if and only if they all
 * commit. `answerOf(value)` is the answer recorded for what the use case returned (and the
 * outcome's answer without a key). A replay, a 422 and concurrent same-key requests are as
 * `idempotentTransaction` says.
 */
export async function idempotentUseCase<T>(
  pool: pg.Pool,
  claim: IdempotencyClaim | null,
  answerOf: (value: T) => RecordedAnswer,
  useCase: () => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  return idempotentTransaction(pool, claim, async (client) => {
    const value = await useCaseTransactions.run({ pool, client }, useCase);
    return { answer: answerOf(value), value };
  });
}

/**
 * Runs a store's writes in a transaction: the keyed use case's (`idempotentUseCase`) when one
 * is running on `pool` (committed with it), else one of their own (`withTransaction`).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const running = useCaseTransactions.getStore();
  if (running?.pool === pool) return fn(running.client);
  return withTransaction(pool, fn);
}

/**
 * Deletes up to `batchSize` keys older than `IdempotencyLimits.retentionMs` when the database
 * has the table; returns how many. Called by the relay's prune (`pruneOutboxHistory`).
 */
export async function pruneIdempotencyKeys(pool: pg.Pool, batchSize: number): Promise<number> {
  const { rows } = await pool.query<{ exists: boolean }>(
    `SELECT to_regclass('idempotency_keys') IS NOT NULL AS exists`,
  );
  if (!rows[0]?.exists) return 0;
  const result = await pool.query(
    `DELETE FROM idempotency_keys WHERE (owner_id, key) IN (
       SELECT owner_id, key FROM idempotency_keys
        WHERE created_at < now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT $2)`,
    [RETENTION_SECONDS, batchSize],
  );
  return result.rowCount ?? 0;
}
