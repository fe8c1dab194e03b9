import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent } from '@wayfarer/contracts';
import {
  dropDatabase,
  freshDatabase,
  localInfra,
  metricValue,
  testInfra,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { createKafka, startConsumerInBackground, type BackgroundConsumer } from '../src/kafka';
import { createLogger } from '../src/logger';
import { metricsText } from '../src/metrics';
import type { OutboxRelay } from '../src/relay';
import {
  createPgPool,
  enqueueEvent,
  migrate,
  outboxMigrations,
  startOutboxRelay,
  withTransaction,
  type Pool,
} from '../src/pg';
import { dropTopics, scratchTopic } from './topic-log';

// What an operator sees while Kafka is down: the outbox's oldest event and the consumers'
// time behind keep growing, and Kafka reads as a dependency that is down. Kafka itself is
// stopped (deploy/local), for as short a time as the readings need.

const logger = createLogger('metrics-kafka-down', 'silent');
const group = `metrics-kafka-down-${uniqueSuffix()}`;
let url: string;
let pool: Pool;
let topic: Awaited<ReturnType<typeof scratchTopic>>;
let relay: OutboxRelay;
let consumer: BackgroundConsumer;
let kafkaStopped = false;
const seen = new Set<string>();

const read = async () => {
  const { body } = await metricsText();
  return {
    outboxAge: metricValue(body, 'wayfarer_outbox_oldest_age_seconds') ?? NaN,
    backlog: metricValue(body, 'wayfarer_outbox_backlog') ?? NaN,
    lagSeconds: metricValue(body, 'wayfarer_consumer_lag_seconds', { group, topic }) ?? NaN,
    kafkaUp: metricValue(body, 'wayfarer_dependency_up', { dependency: 'kafka' }),
  };
};

beforeAll(async () => {
  topic = await scratchTopic('metrics-kafka-down', 1);
  url = await freshDatabase('kit_metrics');
  pool = createPgPool(url);
  await migrate(pool, outboxMigrations);
  const kafka = createKafka({
    clientId: 'metrics-test',
    brokers: testInfra().kafkaBrokers,
    logger,
  });
  relay = startOutboxRelay({ pool, kafka, logger, topics: [topic], pollIntervalMs: 100 });
  consumer = startConsumerInBackground({
    kafka,
    logger,
    groupId: group,
    topics: [topic],
    handle: async (event) => {
      seen.add(event.id);
    },
  });
  await consumer.started;
}, 60_000);

afterAll(async () => {
  if (kafkaStopped) localInfra('up', 'kafka');
  await consumer?.stop();
  await relay?.stop();
  await pool?.end();
  if (url) await dropDatabase(url);
  if (topic) await dropTopics([topic]);
}, 180_000);

describe('outbox and consumer metrics while Kafka is down', () => {
  it('the oldest outbox event and the consumer lag grow, then fall back once Kafka is back', async () => {
    const Ev = defineEvent({
      topic,
      type: 'test.metrics',
      version: 1,
      payload: z.object({ n: z.number() }),
    });
    const send = async (n: number) => {
      const event = makeEvent(Ev, `agg-${n}`, { n });
      await withTransaction(pool, (c) => enqueueEvent(c, Ev.topic, event));
      relay.kick();
      return event.id;
    };

    // flowing: published, consumed, nothing waits
    const first = await send(1);
    await expect.poll(() => seen.has(first), { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => (await read()).backlog, { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => (await read()).lagSeconds, { timeout: 10_000 }).toBeLessThan(2);
    expect((await read()).kafkaUp).toBe(1);

    localInfra('down', 'kafka');
    kafkaStopped = true;
    const second = await send(2);

    // the event waits in the outbox; both ages grow from one reading to the next
    await expect.poll(async () => (await read()).backlog, { timeout: 10_000 }).toBe(1);
    const before = await read();
    await expect
      .poll(async () => (await read()).outboxAge, { timeout: 20_000, interval: 500 })
      .toBeGreaterThan(before.outboxAge + 2);
    await expect
      .poll(async () => (await read()).lagSeconds, { timeout: 20_000, interval: 500 })
      .toBeGreaterThan(before.lagSeconds + 2);
    await expect.poll(async () => (await read()).kafkaUp, { timeout: 20_000 }).toBe(0);
    expect(seen.has(second)).toBe(false);

    localInfra('up', 'kafka');
    kafkaStopped = false;

    // delivered once Kafka is back, and the readings return to nothing waiting
    await expect.poll(() => seen.has(second), { timeout: 60_000, interval: 250 }).toBe(true);
    await expect.poll(async () => (await read()).backlog, { timeout: 10_000 }).toBe(0);
    expect((await read()).outboxAge).toBe(0);
    await expect.poll(async () => (await read()).lagSeconds, { timeout: 20_000 }).toBeLessThan(2);
    await expect.poll(async () => (await read()).kafkaUp, { timeout: 20_000 }).toBe(1);
  }, 180_000);
});
