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
import { trackConsumerLag } from './consumer-lag';
import { quietKafkaRequestQueue } from './kafka-idle';

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
  quietKafkaRequestQueue();
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
   * restart the consumer), so a handler must be idempotent: see `pg/processed-events`. A ZodError
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
 * Group membership timings of every consumer. A consumer that crashes
 * during a broker outage (kafkajs gives up on the dead connection within a second or two and
 * restarts itself) comes back under a new member id, while the restarted coordinator reloads
 * the old member from its log and holds the new one's join until that ghost rejoins or is
 * dropped: after its session timeout or the group's rebalance timeout, whichever comes first.
 * kafkajs's defaults (30 s and 60 s) stalled every projection for 30 s after Kafka was back.
 * - `rebalanceTimeout` 2 s bounds that wait: the coordinator then drops the ghost, and the
 *   projections caught up about 2.2 s after the broker answered (journal's kafka-restart test,
 *   bound 5 s; about 30 s before). A live member learns of a rebalance at its next heartbeat
 *   (kafkajs sends them between messages) and our handlers take milliseconds per message, so
 *   the live ones rejoin well within 2 s; one that misses it is dropped and rejoins (one more
 *   rebalance, nothing lost).
 * - `heartbeatInterval` 0.5 s: how soon a live member notices a rebalance.
 * - `sessionTimeout` 10 s: how long a member that died without leaving keeps its partitions
 *   in a live group (brokers refuse less than `group.min.session.timeout.ms`, 6 s by default).
 */
export const CONSUMER_GROUP_TIMINGS = {
  sessionTimeout: 10_000,
  rebalanceTimeout: 2000,
  heartbeatInterval: 500,
} as const;

/**
 * A consumer's retries (a failing handler, a lost broker): capped at 1 s between attempts so
 * that once the broker answers again the consumer is back within a second; after the last
 * one kafkajs restarts the consumer (retriable errors), `startConsumerInBackground` otherwise.
 */
export const CONSUMER_RETRY = { retries: 8, initialRetryTime: 200, maxRetryTime: 1000 } as const;

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
    ...CONSUMER_GROUP_TIMINGS,
    retry: { ...CONSUMER_RETRY },
  });
  // its lag gauges (consumer-lag.ts), until the consumer is disconnected
  const release = trackConsumerLag(consumer, options.groupId, options.topics);
  const disconnect = consumer.disconnect;
  consumer.disconnect = async () => {
    release();
    await disconnect();
  };
  await consumer.connect();
  try {
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
  } catch (err) {
    // a half-started consumer would keep its connections (and retry timers) forever
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }
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
  /** Its consumer group. */
  readonly groupId: string;
  /** Resolves once the consumer has joined (or was stopped first); services need not wait. */
  started: Promise<void>;
  /**
   * Whether it has joined its group (been given its partitions) at least once: what `/readyz`
   * asks (`consumersJoined`). Stays true through later crashes and outages.
   */
  readonly joined: boolean;
  /**
   * How many times the joined consumer crashed (a lost broker, a handler failing past its
   * retries). Each crash leaves the group and restarts the consumer: kafkajs does for
   * retriable errors, this wrapper for the others. Observable state for tests and health.
   */
  readonly crashes: number;
  stop(): Promise<void>;
}

/**
 * Starts a consumer without holding up the service: while Kafka is unreachable it retries in
 * the background, backing off up to `maxRetryDelayMs` (default 1 s, so it is back within about
 * a second of Kafka), so HTTP is served from what the service's projections already hold and
 * they catch up once Kafka answers. A crash kafkajs does not restart from (a non-retriable
 * error) starts a new consumer the same way, so a projection never stops for good.
 */
export function startConsumerInBackground(
  options: ConsumerOptions & { maxRetryDelayMs?: number },
): BackgroundConsumer {
  const log = options.logger.child({ component: 'consumer', groupId: options.groupId });
  let consumer: Consumer | null = null;
  let stopped = false;
  let crashes = 0;
  let joinedOnce = false;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });

  /** Joins (retrying until it does or `stop` is called); `skipHistory` only on the first join. */
  const join = async (first: boolean): Promise<void> => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const joined = await startConsumer({
          ...options,
          skipHistory: first && options.skipHistory,
        });
        if (stopped) {
          await joined.disconnect();
          return;
        }
        consumer = joined;
        joinedOnce = true;
        joined.on(joined.events.CRASH, ({ payload }) => {
          crashes++;
          // kafkajs has logged the crash, left the group and, if `restart`, restarts by itself
          if (payload.restart || stopped || consumer !== joined) return;
          log.error({ err: payload.error }, 'consumer crashed for good; starting a new one');
          consumer = null;
          void join(false);
        });
        log.info({ topics: options.topics }, 'consumer joined');
        return;
      } catch (err) {
        if (stopped) return;
        const delay = Math.min(options.maxRetryDelayMs ?? 1000, 250 * 2 ** attempt);
        log.warn({ err, attempt, retryInMs: delay }, 'consumer could not start; retrying');
        await sleep(delay);
      }
    }
  };

  return {
    groupId: options.groupId,
    started: join(true),
    get joined() {
      return joinedOnce;
    },
    get crashes() {
      return crashes;
    },
    /** Leaves the group; an attempt still connecting disconnects itself when it is done. */
    async stop() {
      stopped = true;
      wake?.();
      await consumer?.disconnect();
    },
  };
}

/**
 * A `/readyz` check (`createHttpApp`'s `readiness`): fails, naming them, until each of the
 * service's background consumers has joined its group once. A service is ready when its
 * projections are being fed: before, an event published meanwhile waits for the join (a
 * rebalance: a second or more on a busy machine, 3 s more for a new group on a broker with
 * Kafka's default `group.initial.rebalance.delay.ms`), and whoever the stack runner or an
 * orchestrator let in meanwhile saw reads late by that much. Only the first join: a consumer
 * that loses Kafka later keeps the service ready (it serves what its projections hold and
 * catches up when Kafka answers, `startConsumerInBackground`; the consumer lag metrics say
 * so). Joined is not caught up: a group still reading its topics' history is ready (that can
 * take minutes, and the reads it serves are only late).
 */
export function consumersJoined(
  consumers: readonly Pick<BackgroundConsumer, 'groupId' | 'joined'>[],
): () => Promise<void> {
  return async () => {
    const waiting = consumers.filter((c) => !c.joined).map((c) => c.groupId);
    if (waiting.length > 0) throw new Error(`not joined yet: ${waiting.join(', ')}`);
  };
}
