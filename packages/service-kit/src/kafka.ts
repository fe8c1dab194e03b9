import {
  Kafka,
  logLevel,
  Partitioners,
  type Consumer,
  type KafkaConfig,
  type Producer,
} from 'kafkajs';
import type { Logger } from 'pino';
import { z } from 'zod';
import { parseEnvelope, type EventEnvelope } from '@wayfarer/contracts';

const levelNames: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export interface KafkaOptions {
  clientId: string;
  brokers: string[];
  logger: Logger;
  config?: Partial<KafkaConfig>;
}

/** A kafkajs client that logs through pino (broker chatter at warn and above). */
export function createKafka(options: KafkaOptions): Kafka {
  const log = options.logger.child({ component: 'kafka' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...rest } = entry;
        log[levelNames[level] ?? 'info'](rest, message);
      },
    ...options.config,
  });
}

/** A producer with the default partitioner (key-hash) and no startup warning. */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1000 },
  });
}

/** Creates the topics if missing (3 partitions, replication 1 unless the broker says more). */
export async function ensureTopics(
  kafka: Kafka,
  topics: readonly string[],
  numPartitions = 3,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: readonly string[];
  logger: Logger;
  /**
   * Handles one event. Throwing makes kafkajs retry the message (and, after its retries,
   * restart the consumer), so a handler must be idempotent: see `pg/idempotent`. A ZodError
   * (a payload that fails its schema, e.g. from `readEvent`) is logged and the event skipped.
   */
  handle: (
    event: EventEnvelope,
    meta: { topic: string; partition: number; offset: string },
  ) => Promise<void>;
  /** Where a new group starts: the beginning of the topics (default) or their end. */
  fromBeginning?: boolean;
  /**
   * Tests only: a new group starts at the topics' end as of this call (rather than their end
   * when it has joined, which would miss what a test publishes meanwhile), so it does not
   * replay every earlier run's history.
   */
  skipHistory?: boolean;
}

/**
 * Subscribes a consumer group to `topics` and feeds parsed envelopes to `handle`. What can
 * never succeed is logged and skipped: messages that are not valid envelopes, and events
 * whose payload fails its schema (the handler throws a ZodError). Store errors still throw,
 * so the message is retried.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const log = options.logger.child({ component: 'consumer', groupId: options.groupId });
  await ensureTopics(options.kafka, options.topics);
  const ends = options.skipHistory ? await topicEnds(options.kafka, options.topics) : [];
  const consumer = options.kafka.consumer({
    groupId: options.groupId,
    maxWaitTimeInMs: 100,
    retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5000 },
  });
  await consumer.connect();
  await consumer.subscribe({
    topics: [...options.topics],
    fromBeginning: options.skipHistory ? false : (options.fromBeginning ?? true),
  });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const meta = { topic, partition, offset: message.offset };
      let event: EventEnvelope;
      try {
        event = parseEnvelope(message.value);
      } catch (err) {
        log.error({ err, ...meta }, 'skipping malformed event');
        return;
      }
      try {
        await options.handle(event, meta);
      } catch (err) {
        if (!(err instanceof z.ZodError)) throw err;
        log.error(
          { eventId: event.id, type: event.type, issues: err.issues, ...meta },
          'skipping event with an invalid payload',
        );
      }
    },
  });
  for (const end of ends) consumer.seek(end);
  return consumer;
}

async function topicEnds(
  kafka: Kafka,
  topics: readonly string[],
): Promise<{ topic: string; partition: number; offset: string }[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await Promise.all(
      topics.map(async (topic) =>
        (await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({
          topic,
          partition,
          offset: high,
        })),
      ),
    );
    return ends.flat();
  } finally {
    await admin.disconnect();
  }
}

/** A consumer started by `startConsumerInBackground`. */
export interface BackgroundConsumer {
  /** Resolves once the consumer has joined (or was stopped first); services need not wait. */
  started: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a consumer without holding up the service: while Kafka is unreachable it retries in
 * the background, backing off up to `maxRetryDelayMs` (default 5 s), so HTTP is served from
 * what the service's projections already hold and they catch up once Kafka answers.
 */
export function startConsumerInBackground(
  options: ConsumerOptions & { maxRetryDelayMs?: number },
): BackgroundConsumer {
  const log = options.logger.child({ component: 'consumer', groupId: options.groupId });
  let consumer: Consumer | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;

  const started = (async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const joined = await startConsumer(options);
        if (stopped) {
          await joined.disconnect();
          return;
        }
        consumer = joined;
        log.info({ topics: options.topics }, 'consumer joined');
        return;
      } catch (err) {
        if (stopped) return;
        const delay = Math.min(options.maxRetryDelayMs ?? 5000, 250 * 2 ** attempt);
        log.warn({ err, attempt, retryInMs: delay }, 'consumer could not start; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  })();

  return {
    started,
    /** Leaves the group; an attempt still connecting disconnects itself when it is done. */
    async stop() {
      stopped = true;
      wake?.();
      await consumer?.disconnect();
    },
  };
}
