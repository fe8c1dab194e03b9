import type { Consumer, Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { z } from 'zod';
import { Topics, type EventEnvelope } from '@wayfarer/contracts';
import { ensureTopics, startConsumer, type Logger } from '@wayfarer/service-kit';
import { mongoIdempotentHandler } from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../store';
import { applyTripEvent } from './trips';

/** Consumer group ids in production; tests pass unique ones so each reads from the start. */
export const DEFAULT_GROUP_IDS = {
  trips: 'journal-trips',
  friendships: 'journal-friendships',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: JournalStores;
  logger: Logger;
  groupIds?: { trips: string; friendships: string };
  /**
   * Tests only: start a new group at the topic's end as of now instead of its beginning.
   * Production reads from the beginning (a fresh deployment rebuilds its projections from
   * the whole history); tests publish their own events after starting, and replaying every
   * earlier run's history would make each file slower than the last.
   */
  skipHistory?: boolean;
  /** Delay cap between attempts to join while Kafka is unreachable at start. */
  maxRetryDelayMs?: number;
}

export interface Projections {
  /** Resolves once both consumers have joined (useful in tests; main does not wait). */
  started: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the two projections journal keeps: destination owners (trips events) and
 * friendships (social events). Both handlers are idempotent and skip already-processed events.
 * The consumers join in the background, retrying while Kafka is down, so HTTP is served from
 * what the projections already hold.
 */
export function startProjections(options: ProjectionOptions): Projections {
  const { db, stores, logger } = options;
  const groupIds = options.groupIds ?? DEFAULT_GROUP_IDS;
  const log = logger.child({ component: 'projections' });

  const trips = skipInvalid(
    log,
    mongoIdempotentHandler(db, 'journal-trips', (event) => applyTripEvent(stores, event, log)),
  );
  const friendships = skipInvalid(
    log,
    mongoIdempotentHandler(db, 'journal-friendships', async (event) => {
      await stores.friendships.apply(event);
    }),
  );

  const consumers: Consumer[] = [];
  let stopped = false;

  async function join(groupId: string, topic: string, handle: Handler): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (stopped) return;
      try {
        let ends: { partition: number; offset: string }[] = [];
        if (options.skipHistory) {
          await ensureTopics(options.kafka, [topic]);
          ends = await topicEnds(options.kafka, topic);
        }
        const consumer = await startConsumer({
          kafka: options.kafka,
          groupId,
          topics: [topic],
          logger,
          fromBeginning: !options.skipHistory,
          handle: async (event) => {
            await handle(event);
          },
        });
        for (const { partition, offset } of ends) consumer.seek({ topic, partition, offset });
        if (stopped) {
          await consumer.disconnect();
          return;
        }
        consumers.push(consumer);
        log.info({ groupId, topic }, 'consumer joined');
        return;
      } catch (err) {
        const delay = Math.min(options.maxRetryDelayMs ?? 5000, 250 * 2 ** attempt);
        log.warn({ err, groupId, attempt, retryInMs: delay }, 'consumer could not start; retrying');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  const started = Promise.all([
    join(groupIds.trips, Topics.tripsTrip, trips),
    join(groupIds.friendships, Topics.socialFriendship, friendships),
  ]).then(() => undefined);

  return {
    started,
    async stop() {
      stopped = true;
      await Promise.allSettled(consumers.map((c) => c.disconnect()));
    },
  };
}

async function topicEnds(
  kafka: Kafka,
  topic: string,
): Promise<{ partition: number; offset: string }[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.map(({ partition, high }) => ({ partition, offset: high }));
  } finally {
    await admin.disconnect();
  }
}

type Handler = (event: EventEnvelope) => Promise<unknown>;

/**
 * A payload that fails its schema can never succeed: log it and move on instead of letting
 * kafkajs retry it forever. Store errors still throw, so the message is retried.
 */
function skipInvalid(log: Logger, handle: Handler): Handler {
  return async (event) => {
    try {
      await handle(event);
    } catch (err) {
      if (!(err instanceof z.ZodError)) throw err;
      log.error(
        { eventId: event.id, type: event.type, issues: err.issues },
        'skipping event with an invalid payload',
      );
    }
  };
}
