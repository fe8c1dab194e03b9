import type { Kafka } from 'kafkajs';
import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool } from '@wayfarer/service-kit/pg';
import type { ItemsStore } from '../../store/items';
import { eraseUser } from '../../usecases/erase-user';
import { CONSUMERS, type ConsumerOptions } from './index';

/**
 * auth's `auth.user.v1`: a closed account (`user.deleted`) is erased in one transaction with
 * its processed marker. Retried while PostgreSQL is down; never lost (Kafka keeps the event).
 */
export function startErasureConsumer(
  options: ConsumerOptions & {
    kafka: Kafka;
    pool: Pool;
    items: ItemsStore;
    logger: Logger;
    /** `groupId(env, CONSUMERS.erasure)` */
    groupId: string;
  },
): BackgroundConsumer {
  const apply = processedEventsHandler(options.pool, CONSUMERS.erasure, async (client, event) => {
    const deleted = readEvent(UserDeleted, event);
    if (deleted) await eraseUser(client, options.items, deleted.payload.userId);
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
