import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { Topics } from '@wayfarer/contracts';
import type { ConsumerOptions, Logger } from '@wayfarer/service-kit';
import { mongoIdempotentHandler, type FriendshipProjection } from '@wayfarer/service-kit/mongo';

/** The consumer's name: its group id (behind KAFKA_GROUP_PREFIX) and processed-event key. */
export const FRIENDSHIP_CONSUMER = 'trips-friendships';

/**
 * The consumer of trips' read model of friendships (who may see whose photos), from social's
 * `social.friendship.v1` events: hand it to service-kit's `startConsumerInBackground` (main:
 * photos of friends stay hidden while Kafka is down, owners are unaffected) or `startConsumer`.
 * `apply` is idempotent and order-safe; the processed-event marker only saves repeated work.
 */
export function friendshipConsumer(options: {
  kafka: Kafka;
  db: Db;
  projection: FriendshipProjection;
  logger: Logger;
  /** The Kafka consumer group: `groupId(env, FRIENDSHIP_CONSUMER)` in production. */
  groupId: string;
}): ConsumerOptions {
  const handle = mongoIdempotentHandler(options.db, FRIENDSHIP_CONSUMER, async (event) => {
    await options.projection.apply(event);
  });
  return {
    kafka: options.kafka,
    groupId: options.groupId,
    topics: [Topics.socialFriendship],
    logger: options.logger,
    handle: async (event) => {
      await handle(event);
    },
  };
}
