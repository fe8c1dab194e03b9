import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, Topics } from '@wayfarer/contracts';
import { dropDatabase, freshDatabase, testInfra, waitForEvents } from '@wayfarer/test-kit';
import { createKafka, startConsumer } from '../src/kafka';
import { createLogger } from '../src/logger';
import { KIT_TEST_TOPIC } from './topic-log';
import {
  createPgPool,
  enqueueEvent,
  processedEventsHandler,
  migrate,
  outboxMigrations,
  processedEventsMigration,
  startOutboxRelay,
  withTransaction,
  type Pool,
} from '../src/pg';

const Ping = defineEvent({
  topic: Topics.authUser,
  type: 'test.ping',
  version: 1,
  payload: z.object({ n: z.number() }),
});

describe('outbox relay and idempotent consumer (real PostgreSQL + Kafka)', () => {
  let url: string;
  let pool: Pool;
  const logger = createLogger('service-kit-test', 'silent');
  const kafka = createKafka({ clientId: 'kit-test', brokers: testInfra().kafkaBrokers, logger });

  beforeAll(async () => {
    url = await freshDatabase('kit');
    pool = createPgPool(url);
    await migrate(pool, [...outboxMigrations, processedEventsMigration]);
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  it('applies migrations once', async () => {
    expect(await migrate(pool, [...outboxMigrations, processedEventsMigration])).toEqual([]);
  });

  it('publishes committed events and never rolled-back ones', async () => {
    const aggregate = randomUUID();
    const committed = makeEvent(Ping, aggregate, { n: 1 });
    await withTransaction(pool, (c) => enqueueEvent(c, Ping.topic, committed));
    await expect(
      withTransaction(pool, async (c) => {
        await enqueueEvent(c, Ping.topic, makeEvent(Ping, aggregate, { n: 2 }));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');

    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: [Ping.topic],
      pollIntervalMs: 50,
    });
    try {
      const events = await waitForEvents<{
        id: string;
        aggregateId: string;
        payload: { n: number };
      }>(Ping.topic, (e) => e.aggregateId === aggregate);
      expect(events.map((e) => e.payload.n)).toEqual([1]);
      expect(events[0]!.id).toBe(committed.id);
      await relay.flush();
      const { rows } = await pool.query('SELECT published_at FROM outbox WHERE id = $1', [
        committed.id,
      ]);
      expect(rows[0].published_at).not.toBeNull();
    } finally {
      await relay.stop();
    }
  });

  it('applies a redelivered event once', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS counter (n int NOT NULL)');
    await pool.query('INSERT INTO counter VALUES (0)');
    const handle = processedEventsHandler(pool, 'counter', async (client) => {
      await client.query('UPDATE counter SET n = n + 1');
    });
    const event = makeEvent(Ping, 'a', { n: 1 });
    expect(await handle(event)).toBe(true);
    expect(await handle(event)).toBe(false);
    const { rows } = await pool.query('SELECT n FROM counter');
    expect(rows[0].n).toBe(1);
  });

  it('feeds envelopes to a consumer group and skips junk', async () => {
    const topic = KIT_TEST_TOPIC;
    const aggregate = randomUUID();
    const producer = kafka.producer();
    await producer.connect();
    const event = makeEvent({ ...Ping, topic }, aggregate, { n: 7 });
    await producer.send({
      topic,
      messages: [
        { key: aggregate, value: 'not json' },
        { key: aggregate, value: JSON.stringify(event) },
      ],
    });
    await producer.disconnect();
    const seen: string[] = [];
    const consumer = await startConsumer({
      kafka,
      groupId: `kit-test-${randomUUID()}`,
      topics: [topic],
      logger,
      handle: async (e) => {
        if (e.aggregateId === aggregate) seen.push(e.id);
      },
    });
    try {
      await vi.waitFor(() => expect(seen).toEqual([event.id]), { timeout: 20_000, interval: 100 });
    } finally {
      await consumer.disconnect();
    }
  });
});
