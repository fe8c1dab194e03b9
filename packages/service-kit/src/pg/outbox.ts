import type pg from 'pg';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import {
  sendEvents,
  startRelayLoop,
  type OutboxBacklogSource,
  type OutboxRelay,
  type RelayOptions,
} from '../relay';
import { activeTraceparent } from '../telemetry/trace';
import { pruneIdempotencyKeys } from './idempotency';
import type { Migration } from './migrate';
import { checkout } from './pool';

/** The outbox table: events written in the same transaction as the change they describe. */
export const outboxMigration: Migration = {
  id: '000_outbox',
  sql: `
    CREATE TABLE IF NOT EXISTS outbox (
      seq          bigserial PRIMARY KEY,
      id           uuid NOT NULL UNIQUE,
      topic        text NOT NULL,
      key          text NOT NULL,
      envelope     jsonb NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox (seq) WHERE published_at IS NULL;
  `,
};

/** The index of the relay's prune query (published rows by age). */
export const outboxPublishedIndexMigration: Migration = {
  id: '000_outbox_published',
  sql: `
    CREATE INDEX IF NOT EXISTS outbox_published ON outbox (published_at)
      WHERE published_at IS NOT NULL;
  `,
};

/**
 * The trace context of the request that wrote a row (W3C `traceparent`, null when untraced):
 * the relay publishes the event under a span of that trace (`telemetry/trace.ts`).
 */
export const outboxTraceparentMigration: Migration = {
  id: '000_outbox_traceparent',
  sql: `ALTER TABLE outbox ADD COLUMN IF NOT EXISTS traceparent text;`,
};

/**
 * Rows deleted by the relay once published instead of kept as history (`forgetOnPublish`): the
 * events an erasure writes, which name the erased user (docs/architecture.md, "Erasure").
 */
export const outboxForgetMigration: Migration = {
  id: '000_outbox_forget',
  sql: `ALTER TABLE outbox ADD COLUMN IF NOT EXISTS forget_on_publish boolean NOT NULL DEFAULT false;`,
};

/** The outbox schema, in order: spread it into a publishing service's migrations. */
export const outboxMigrations: readonly Migration[] = [
  outboxMigration,
  outboxPublishedIndexMigration,
  outboxTraceparentMigration,
  outboxForgetMigration,
];

/**
 * Records `event` for `topic` inside the caller's transaction, with the active trace context
 * (the relay continues that trace when it publishes the event).
 */
export async function enqueueEvent(
  client: pg.PoolClient,
  topic: Topic,
  event: EventEnvelope,
  options: { forgetOnPublish?: boolean } = {},
): Promise<void> {
  await client.query(
    `INSERT INTO outbox (id, topic, key, envelope, traceparent, forget_on_publish)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      event.id,
      topic,
      event.aggregateId,
      JSON.stringify(event),
      activeTraceparent() ?? null,
      options.forgetOnPublish ?? false,
    ],
  );
}

/**
 * Erasure (a `user.deleted`): deletes, in the caller's transaction, every outbox row naming
 * `text` (a user id) in its key or its event, published or not: published ones are history,
 * unpublished ones would tell other services about a user who is gone. Rows written after it
 * in the same transaction (the erasure's own events, `forgetOnPublish`) are kept. A row a relay
 * is sending is deleted once that send commits. Returns how many went.
 */
export async function eraseFromOutbox(client: pg.PoolClient, text: string): Promise<number> {
  const { rowCount } = await client.query(
    `DELETE FROM outbox WHERE key = $1 OR strpos(envelope::text, $1) > 0`,
    [text],
  );
  return rowCount ?? 0;
}

export interface OutboxRelayOptions extends RelayOptions {
  pool: pg.Pool;
}

/**
 * One bounded round of pruning: published outbox rows, and the markers of this database's
 * idempotent consumers (`processed_events`, when the service has that table), older than
 * `retentionMs`; and the keys of idempotent creates (`idempotency_keys`, when the service has
 * that table) older than their own `IdempotencyLimits.retentionMs`. Unpublished rows are never
 * touched. Returns the number of rows removed.
 */
export async function pruneOutboxHistory(
  pool: pg.Pool,
  retentionMs: number,
  batchSize: number,
): Promise<number> {
  const seconds = retentionMs / 1000;
  const published = await pool.query(
    `DELETE FROM outbox WHERE seq IN (
       SELECT seq FROM outbox
        WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1)
        ORDER BY published_at LIMIT $2)`,
    [seconds, batchSize],
  );
  const { rows } = await pool.query<{ exists: boolean }>(
    `SELECT to_regclass('processed_events') IS NOT NULL AS exists`,
  );
  let markers = 0;
  if (rows[0]?.exists) {
    const result = await pool.query(
      `DELETE FROM processed_events WHERE (consumer, event_id) IN (
         SELECT consumer, event_id FROM processed_events
          WHERE processed_at < now() - make_interval(secs => $1)
          ORDER BY processed_at LIMIT $2)`,
      [seconds, batchSize],
    );
    markers = result.rowCount ?? 0;
  }
  const keys = await pruneIdempotencyKeys(pool, batchSize);
  return (published.rowCount ?? 0) + markers + keys;
}

/**
 * Relays outbox rows to Kafka: at least once, in `seq` order per relay. Several relays may
 * run: each round locks its rows with `FOR UPDATE SKIP LOCKED` in a transaction that spans the
 * send and the `published_at` update, so another instance skips rows being sent and sees them
 * published once the lock is released; a relay that dies mid-send rolls back and its rows are
 * sent again (at least once). It also prunes published rows and consumer markers older than
 * `retentionMs` (default 7 days), at most every `pruneIntervalMs` (default 10 minutes).
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const batchSize = options.batchSize ?? 200;
  return startRelayLoop({
    ...options,
    name: 'outbox-relay',
    pruneOnce: (retentionMs, batchSize) => pruneOutboxHistory(options.pool, retentionMs, batchSize),
    backlog: outboxBacklog(options.pool),
    async publishPending(connect) {
      // a connection lost mid-round (PostgreSQL restarting, the network dropping) rejects the
      // query in flight or the next one: the round fails, the loop backs off and retries, and
      // the client is discarded
      const { client, release } = await checkout(options.pool);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{
          seq: string;
          topic: string;
          key: string;
          envelope: unknown;
          traceparent: string | null;
        }>(
          `SELECT seq, topic, key, envelope, traceparent FROM outbox
            WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [batchSize],
        );
        if (rows.length > 0) {
          await sendEvents(connect, rows);
          const seqs = rows.map((r) => r.seq);
          // an erasure's events are not kept as history (outboxForgetMigration)
          await client.query(
            'DELETE FROM outbox WHERE seq = ANY($1::bigint[]) AND forget_on_publish',
            [seqs],
          );
          await client.query(
            'UPDATE outbox SET published_at = now() WHERE seq = ANY($1::bigint[])',
            [seqs],
          );
        }
        await client.query('COMMIT');
        return rows.length;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: Error) => {
          broken = rollbackErr;
        });
        throw err;
      } finally {
        release(broken);
      }
    },
  });
}

/**
 * The outbox's unpublished rows for the metrics: how many, and the oldest's age measured by
 * the database's clock (the partial index `outbox_unpublished` holds exactly those rows).
 */
export function outboxBacklog(pool: pg.Pool): OutboxBacklogSource {
  return {
    async read() {
      const { rows } = await pool.query<{ pending: number; age: number | null }>(
        `SELECT count(*)::int AS pending,
                extract(epoch FROM now() - min(created_at))::float8 AS age
           FROM outbox WHERE published_at IS NULL`,
      );
      const { pending = 0, age = null } = rows[0] ?? {};
      return {
        pending,
        oldestCreatedAt: age === null ? null : new Date(Date.now() - age * 1000),
      };
    },
  };
}
