import type { EventEnvelope } from '@wayfarer/contracts';
import type pg from 'pg';
import type { Migration } from './migrate';
import { withTransaction } from './pool';

/**
 * Table of events a consumer has already applied: bucketlist's (trip events); social's
 * (user and trip events) will be next.
 */
export const processedEventsMigration: Migration = {
  id: '000_processed_events',
  sql: `
    CREATE TABLE IF NOT EXISTS processed_events (
      consumer     text NOT NULL,
      event_id     uuid NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    );
  `,
};

/** The index of the relay's prune query (markers by age). */
export const processedEventsIndexMigration: Migration = {
  id: '000_processed_events_at',
  sql: `CREATE INDEX IF NOT EXISTS processed_events_at ON processed_events (processed_at);`,
};

/**
 * The idempotent consumer's schema, in order: spread it into a consuming service's migrations.
 * Markers older than the retention window are pruned by the service's outbox relay
 * (`pruneOutboxHistory`).
 */
export const processedEventsMigrations: readonly Migration[] = [
  processedEventsMigration,
  processedEventsIndexMigration,
];

/**
 * Wraps an event handler so each event's effect is applied exactly once: the event id is
 * recorded in the same transaction as the effect, and a redelivered event is skipped.
 * Returns false when the event had already been processed.
 */
export function processedEventsHandler(
  pool: pg.Pool,
  consumer: string,
  apply: (client: pg.PoolClient, event: EventEnvelope) => Promise<void>,
): (event: EventEnvelope) => Promise<boolean> {
  return (event) =>
    withTransaction(pool, async (client) => {
      const { rowCount } = await client.query(
        `INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING`,
        [consumer, event.id],
      );
      if (!rowCount) return false;
      await apply(client, event);
      return true;
    });
}
