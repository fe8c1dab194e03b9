import {
  Kafka,
  logLevel,
  Partitioners,
  type Consumer,
  type KafkaConfig,
  type Producer,
} from 'kafkajs';
import type { Logger } from 'pino';
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
   * restart the consumer), so a handler must be idempotent: see `pg/idempotent`.
   */
  handle: (
    event: EventEnvelope,
    meta: { topic: string; partition: number; offset: string },
  ) => Promise<void>;
  fromBeginning?: boolean;
}

/**
 * Subscribes a consumer group to `topics` and feeds parsed envelopes to `handle`.
 * Messages that are not valid envelopes are logged and skipped (they can never succeed).
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const log = options.logger.child({ component: 'consumer', groupId: options.groupId });
  await ensureTopics(options.kafka, options.topics);
  const consumer = options.kafka.consumer({
    groupId: options.groupId,
    maxWaitTimeInMs: 100,
    retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5000 },
  });
  await consumer.connect();
  await consumer.subscribe({
    topics: [...options.topics],
    fromBeginning: options.fromBeginning ?? true,
  });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      let event: EventEnvelope;
      try {
        event = parseEnvelope(message.value);
      } catch (err) {
        log.error({ err, topic, partition, offset: message.offset }, 'skipping malformed event');
        return;
      }
      await options.handle(event, { topic, partition, offset: message.offset });
    },
  });
  return consumer;
}
