import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import { startConsumerInBackground, type BackgroundConsumer } from '../kafka';
import { mongoProcessedEventsHandler } from './processed-events';

/** One read model a MongoDB service keeps from Kafka events. */
export interface MongoProjectionSpec {
  /** Its processed-event key (and its group name behind KAFKA_GROUP_PREFIX). */
  name: string;
  /** The Kafka consumer group: `groupId(env, name)` in production, unique ones in tests. */
  groupId: string;
  topics: readonly Topic[];
  /** Applies one event; skipped for an event already processed under `name`. */
  apply: (event: EventEnvelope) => Promise<void>;
  /** Runs after each event, also on a redelivery (so it must be harmless twice). */
  after?: (event: EventEnvelope) => Promise<void> | void;
}

export interface MongoProjections<K extends string> {
  /** Resolves once every consumer has joined (useful in tests; main does not wait). */
  started: Promise<void>;
  /** The consumers (their `crashes` count: tests observe a broker outage through it). */
  consumers: Record<K, BackgroundConsumer>;
  stop(): Promise<void>;
}

/**
 * Starts a MongoDB service's projections, one background consumer each: handlers idempotent
 * (`mongoProcessedEventsHandler`), joining in the background while Kafka is down (HTTP is served
 * from what the projections already hold).
 */
export function startMongoProjections<K extends string>(options: {
  kafka: Kafka;
  db: Db;
  logger: Logger;
  projections: Record<K, MongoProjectionSpec>;
  /**
   * Tests only: start a new group at the topic's end as of now instead of its beginning.
   * Production reads from the beginning (a fresh deployment rebuilds its projections from the
   * whole history); tests publish their own events after starting.
   */
  skipHistory?: boolean;
  /** Delay cap between attempts to join while Kafka is unreachable at start. */
  maxRetryDelayMs?: number;
}): MongoProjections<K> {
  const { kafka, db, logger, skipHistory, maxRetryDelayMs } = options;
  const specs = Object.entries(options.projections) as [K, MongoProjectionSpec][];
  const consumers = Object.fromEntries(
    specs.map(([key, spec]) => {
      const apply = mongoProcessedEventsHandler(db, spec.name, spec.apply);
      const consumer = startConsumerInBackground({
        kafka,
        logger,
        skipHistory,
        maxRetryDelayMs,
        groupId: spec.groupId,
        topics: spec.topics,
        handle: async (event) => {
          await apply(event);
          await spec.after?.(event);
        },
      });
      return [key, consumer];
    }),
  ) as Record<K, BackgroundConsumer>;
  const all: BackgroundConsumer[] = Object.values(consumers);
  return {
    started: Promise.all(all.map((c) => c.started)).then(() => undefined),
    consumers,
    async stop() {
      await Promise.allSettled(all.map((c) => c.stop()));
    },
  };
}
