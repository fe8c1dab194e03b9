import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, readEvent, Topics, type EventEnvelope } from '@wayfarer/contracts';
import { testInfra } from '@wayfarer/test-kit';
import { createKafka, startConsumer, startConsumerInBackground } from '../src/kafka';
import { createLogger } from '../src/logger';

const Ping = defineEvent({
  topic: Topics.chatMessage,
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

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
      await until(() => seen.length > 0, 'the good event');
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
      await until(() => seen.length > 0, 'the new event');
      expect(seen).toEqual([2]);
    } finally {
      await consumer.disconnect();
    }
  });

  it('in the background: joins and consumes; started resolves', async () => {
    const aggregate = randomUUID();
    const { seen, handle } = recorder(aggregate);
    const background = startConsumerInBackground(fresh(handle));
    try {
      await background.started;
      await publish(aggregate, [ping(aggregate, 3)]);
      await until(() => seen.length > 0, 'the event');
      expect(seen).toEqual([3]);
    } finally {
      await background.stop();
    }
  });

  it('in the background: keeps retrying while Kafka is unreachable, and stops at once', async () => {
    const nowhere = createKafka({
      clientId: 'kit-consumer-nowhere',
      brokers: ['127.0.0.1:9'],
      logger,
      config: { connectionTimeout: 200, retry: { retries: 0 } },
    });
    const background = startConsumerInBackground({
      kafka: nowhere,
      groupId: `kit-consumer-${randomUUID()}`,
      topics: [Ping.topic],
      logger,
      handle: async () => undefined,
      maxRetryDelayMs: 100,
    });
    let settled = false;
    void background.started.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(settled).toBe(false);
    const t0 = Date.now();
    await background.stop();
    await background.started;
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
