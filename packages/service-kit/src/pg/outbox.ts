import type { Kafka, Producer } from 'kafkajs';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import { createProducer, ensureTopics } from '../kafka';
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

export interface OutboxRelay {
  /** Asks the relay to publish now (call after a commit that enqueued events). */
  kick(): void;
  /** Publishes everything pending once; resolves with the number sent. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Relays outbox rows to Kafka: at least once, in commit order per relay. When Kafka is down
 * the rows simply wait (with backoff up to 5 s) and go out once it is back; a write never
 * fails because of Kafka. Several relays may run: rows are claimed with SKIP LOCKED.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const log = options.logger.child({ component: 'outbox-relay' });
  const poll = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? 200;
  let producer: Producer | null = null;
  let stopped = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;

  async function connect(): Promise<Producer> {
    if (producer) return producer;
    await ensureTopics(options.kafka, options.topics);
    const p = createProducer(options.kafka);
    await p.connect();
    producer = p;
    log.info('connected to Kafka');
    return p;
  }

  async function publishBatch(): Promise<number> {
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
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 0;
      }
      const p = await connect();
      const byTopic = new Map<string, { key: string; value: string }[]>();
      for (const row of rows) {
        const list = byTopic.get(row.topic) ?? [];
        list.push({ key: row.key, value: JSON.stringify(row.envelope) });
        byTopic.set(row.topic, list);
      }
      await p.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
      await client.query('UPDATE outbox SET published_at = now() WHERE seq = ANY($1::bigint[])', [
        rows.map((r) => r.seq),
      ]);
      await client.query('COMMIT');
      return rows.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await publishBatch();
      total += sent;
      if (sent < batchSize) return total;
    }
  }

  function runOnce(): Promise<number> {
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(delay: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delay);
  }

  async function tick() {
    timer = null;
    try {
      const sent = await runOnce();
      if (sent > 0) log.debug({ sent }, 'published outbox events');
      if (failures > 0) log.info('outbox relay recovered');
      failures = 0;
      schedule(poll);
    } catch (err) {
      failures += 1;
      const backoff = Math.min(5000, poll * 2 ** failures);
      if (failures === 1 || failures % 10 === 0) {
        log.warn(
          { err, failures, retryInMs: backoff },
          'outbox relay could not publish; will retry',
        );
      }
      // a broken producer is rebuilt on the next attempt
      const p = producer;
      producer = null;
      await p?.disconnect().catch(() => undefined);
      schedule(backoff);
    }
  }

  schedule(0);

  return {
    kick() {
      if (failures === 0) schedule(0);
    },
    flush: runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      await producer?.disconnect().catch(() => undefined);
    },
  };
}
