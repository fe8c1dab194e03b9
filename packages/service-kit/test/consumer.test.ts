import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { KafkaJSNonRetriableError } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, readEvent, type EventEnvelope } from '@wayfarer/contracts';
import { testInfra } from '@wayfarer/test-kit';
import {
  consumersJoined,
  createKafka,
  startConsumer,
  startConsumerInBackground,
} from '../src/kafka';
import { createLogger } from '../src/logger';
import { KIT_TEST_TOPIC } from './topic-log';

const Ping = defineEvent({
  topic: KIT_TEST_TOPIC,
  type: 'test.consumer-ping',
  version: 1,
  payload: z.object({ n: z.number() }),
});

const logger = createLogger('kit-consumer-test', 'silent');
const kafka = createKafka({
  clientId: 'kit-consumer-test',
  brokers: testInfra().kafkaBrokers,
  logger,
});

async function publish(aggregate: string, values: string[]): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({
      topic: Ping.topic,
      messages: values.map((value) => ({ key: aggregate, value })),
    });
  } finally {
    await producer.disconnect();
  }
}

/** Waits until `handler` has seen an event (Kafka delivers on its own schedule). */
const untilSeen = (seen: readonly number[]) =>
  vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });

/** A logger that keeps the messages of its `warn` records. */
function recordingLogger() {
  const warnings: string[] = [];
  const sink = new Writable({
    write(line: Buffer, _encoding, done) {
      const record = JSON.parse(line.toString()) as { level: number; msg: string };
      if (record.level === 40) warnings.push(record.msg);
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), warnings };
}

/** A handler that records the `n` of the Ping events of `aggregate` (a bad payload throws). */
function recorder(aggregate: string): {
  seen: number[];
  handle: (e: EventEnvelope) => Promise<void>;
} {
  const seen: number[] = [];
  return {
    seen,
    handle: async (event) => {
      const ping = event.aggregateId === aggregate ? readEvent(Ping, event) : null;
      if (ping) seen.push(ping.payload.n);
    },
  };
}

/** Options of a new group reading the Ping topic from now on. */
const fresh = (handle: (e: EventEnvelope) => Promise<void>) => ({
  kafka,
  groupId: `kit-consumer-${randomUUID()}`,
  topics: [Ping.topic],
  logger,
  skipHistory: true,
  handle,
});

const ping = (aggregate: string, n: number) => JSON.stringify(makeEvent(Ping, aggregate, { n }));

describe('consumers (real Kafka)', () => {
  it('skips an event whose payload fails its schema and goes on with the next', async () => {
    const aggregate = randomUUID();
    const { seen, handle } = recorder(aggregate);
    const consumer = await startConsumer(fresh(handle));
    try {
      const bad = { ...makeEvent(Ping, aggregate, { n: 1 }), payload: { n: 'one' } };
      await publish(aggregate, [JSON.stringify(bad), ping(aggregate, 2)]);
      await untilSeen(seen);
      expect(seen).toEqual([2]);
    } finally {
      await consumer.disconnect();
    }
  });

  it('starts at the end of the topic as of the call with skipHistory', async () => {
    const aggregate = randomUUID();
    await publish(aggregate, [ping(aggregate, 1)]);
    const { seen, handle } = recorder(aggregate);
    const consumer = await startConsumer(fresh(handle));
    try {
      await publish(aggregate, [ping(aggregate, 2)]);
      await untilSeen(seen);
      expect(seen).toEqual([2]);
    } finally {
      await consumer.disconnect();
    }
  });

  it('in the background: joins and consumes; started resolves, and the readiness check passes', async () => {
    const aggregate = randomUUID();
    const { seen, handle } = recorder(aggregate);
    const background = startConsumerInBackground(fresh(handle));
    const ready = consumersJoined([background]);
    try {
      await background.started;
      expect(background.joined).toBe(true);
      await expect(ready()).resolves.toBeUndefined();
      await publish(aggregate, [ping(aggregate, 3)]);
      await untilSeen(seen);
      expect(seen).toEqual([3]);
    } finally {
      await background.stop();
    }
  });

  it('in the background: a crash kafkajs does not restart from starts a new consumer', async () => {
    const aggregate = randomUUID();
    const { seen, handle } = recorder(aggregate);
    let failed = false;
    const background = startConsumerInBackground(
      fresh(async (event) => {
        if (!failed && event.aggregateId === aggregate) {
          failed = true;
          // not retriable: kafkajs stops the consumer for good (CRASH with restart: false)
          throw new KafkaJSNonRetriableError('a handler failure kafkajs gives up on');
        }
        await handle(event);
      }),
    );
    try {
      await background.started;
      await publish(aggregate, [ping(aggregate, 4)]);
      // the new consumer resumes from the committed offset: the event is handled after all
      await untilSeen(seen);
      expect(seen).toEqual([4]);
      expect(failed).toBe(true);
      expect(background.crashes).toBe(1);
    } finally {
      await background.stop();
    }
  });

  it('in the background: keeps retrying while Kafka is unreachable, and stops when asked', async () => {
    const nowhere = createKafka({
      clientId: 'kit-consumer-nowhere',
      brokers: ['127.0.0.1:9'],
      logger,
      config: { connectionTimeout: 200, retry: { retries: 0 } },
    });
    const { logger: recording, warnings } = recordingLogger();
    const background = startConsumerInBackground({
      kafka: nowhere,
      groupId: `kit-consumer-${randomUUID()}`,
      topics: [Ping.topic],
      logger: recording,
      handle: async () => undefined,
      maxRetryDelayMs: 100,
    });
    let settled = false;
    void background.started.then(() => {
      settled = true;
    });
    // never joined: a service holding it is not ready, and says which group it waits for
    const ready = consumersJoined([background]);
    // three failed attempts, each logged, and it has not given up
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThanOrEqual(3), {
      timeout: 20_000,
      interval: 50,
    });
    expect(new Set(warnings)).toEqual(new Set(['consumer could not start; retrying']));
    expect(settled).toBe(false);
    expect(background.joined).toBe(false);
    await expect(ready()).rejects.toThrow(`not joined yet: ${background.groupId}`);
    // stopped in the middle of a retry wait: `started` resolves (it ends the loop)
    await background.stop();
    await expect(background.started).resolves.toBeUndefined();
  });
});
