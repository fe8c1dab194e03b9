import type { Kafka } from 'kafkajs';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import { batchByTopic, startRelayLoop, type OutboxRelay } from '../relay';
import type { Migration } from './migrate';

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

/** Records `event` for `topic` inside the caller's transaction. */
export async function enqueueEvent(
  client: pg.PoolClient,
  topic: Topic,
  event: EventEnvelope,
): Promise<void> {
  await client.query('INSERT INTO outbox (id, topic, key, envelope) VALUES ($1, $2, $3, $4)', [
    event.id,
    topic,
    event.aggregateId,
    JSON.stringify(event),
  ]);
}

export interface OutboxRelayOptions {
  pool: pg.Pool;
  kafka: Kafka;
  logger: Logger;
  /** Topics this service publishes: created on first connect. */
  topics: readonly Topic[];
  pollIntervalMs?: number;
  batchSize?: number;
}

/**
 * Relays outbox rows to Kafka: at least once, in commit order per relay. Several relays may
 * run: rows are claimed with SKIP LOCKED.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const batchSize = options.batchSize ?? 200;
  return startRelayLoop({
    name: 'outbox-relay',
    kafka: options.kafka,
    logger: options.logger,
    topics: options.topics,
    pollIntervalMs: options.pollIntervalMs,
    async publishPending(connect) {
      const client = await options.pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{
          seq: string;
          topic: string;
          key: string;
          envelope: unknown;
        }>(
          `SELECT seq, topic, key, envelope FROM outbox
            WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [batchSize],
        );
        if (rows.length > 0) {
          const producer = await connect();
          await producer.sendBatch({
            acks: -1,
            topicMessages: batchByTopic(
              rows.map((r) => ({ topic: r.topic, key: r.key, value: JSON.stringify(r.envelope) })),
            ),
          });
          await client.query(
            'UPDATE outbox SET published_at = now() WHERE seq = ANY($1::bigint[])',
            [rows.map((r) => r.seq)],
          );
        }
        await client.query('COMMIT');
        return rows.length;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  });
}
