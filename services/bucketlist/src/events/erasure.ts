import type { Kafka } from 'kafkajs';
import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { eraseFromOutbox, processedEventsHandler, type Pool } from '@wayfarer/service-kit/pg';

/** bucketlist's consumer of auth's `auth.user.v1` (`user.deleted`): marker key, group name. */
export const ERASURE_CONSUMER = 'bucketlist-erasure';

/**
 * Erases a closed account (auth's `user.deleted`) in one transaction with its processed
 * marker: the user's places (visited ones and itineraries included), idempotency keys and every
 * outbox row naming them. Retried while PostgreSQL is down; never lost (Kafka keeps the event).
 */
export function startErasureConsumer(options: {
  kafka: Kafka;
  pool: Pool;
  logger: Logger;
  groupId: string;
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}): BackgroundConsumer {
  const apply = processedEventsHandler(options.pool, ERASURE_CONSUMER, async (client, event) => {
    const deleted = readEvent(UserDeleted, event);
    if (!deleted) return;
    const { userId } = deleted.payload;
    await client.query('DELETE FROM bucket_items WHERE owner_id = $1', [userId]);
    await client.query('DELETE FROM idempotency_keys WHERE owner_id = $1', [userId]);
    await eraseFromOutbox(client, userId);
  });
  return startConsumerInBackground({
    kafka: options.kafka,
    logger: options.logger,
    groupId: options.groupId,
    topics: [Topics.authUser],
    skipHistory: options.skipHistory,
    maxRetryDelayMs: options.maxRetryDelayMs,
    handle: async (event) => {
      await apply(event);
    },
  });
}
