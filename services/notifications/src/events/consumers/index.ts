import type { Kafka } from 'kafkajs';
import { Topics, type NotificationPushMessage, type Topic } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool } from '@wayfarer/service-kit/pg';
import type { NotificationsStores } from '../../usecases/deps';
import { deliver } from '../../usecases/deliver';
import type { NotificationPusher } from '../outbox';
import type { Apply } from './apply';
import { applyFriendshipEvent } from './friendships';
import { applyMessageEvent } from './messages';
import { applyTripEvent } from './trips';
import { applyUserEvent } from './users';

/**
 * notifications' consumers, one per topic (a trip told to 200 friends never holds a message's
 * notification back): each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  users: 'notifications-users',
  friendships: 'notifications-friendships',
  trips: 'notifications-trips',
  messages: 'notifications-messages',
} as const;

type ConsumerName = keyof typeof CONSUMERS;

export interface ConsumersOptions {
  kafka: Kafka;
  pool: Pool;
  stores: NotificationsStores;
  pusher: NotificationPusher;
  logger: Logger;
  /** The consumer group of each consumer: `groupIds(env, CONSUMERS)`. */
  groupIds: Record<ConsumerName, string>;
  /** The clock (tests: a later day, for the 90-day bound). */
  now: () => Date;
  /** Tests only: a new group starts at the topic's end as of now (service-kit). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

export type Consumers = Record<ConsumerName, BackgroundConsumer>;

/**
 * Starts the four consumers: each event applied once (service-kit's PostgreSQL idempotent
 * handler, its marker in the same transaction as the notifications it stores), then, after the
 * commit, what it stored is delivered (pushed live, its recipients trimmed to the 500 bound).
 */
export function startConsumers(options: ConsumersOptions): Consumers {
  const { pool, stores, logger } = options;
  const start = (name: ConsumerName, topic: Topic, apply: Apply): BackgroundConsumer => {
    let stored: NotificationPushMessage[] = [];
    const handle = processedEventsHandler(pool, CONSUMERS[name], async (client, event) => {
      stored = await apply(stores, client, event, options.now());
    });
    return startConsumerInBackground({
      kafka: options.kafka,
      logger,
      groupId: options.groupIds[name],
      topics: [topic],
      skipHistory: options.skipHistory,
      maxRetryDelayMs: options.maxRetryDelayMs,
      handle: async (event) => {
        stored = [];
        if (!(await handle(event))) return;
        await deliver(options, stored);
      },
    });
  };
  return {
    users: start('users', Topics.authUser, applyUserEvent),
    friendships: start('friendships', Topics.socialFriendship, applyFriendshipEvent),
    trips: start('trips', Topics.tripsTrip, applyTripEvent),
    messages: start('messages', Topics.chatMessage, applyMessageEvent),
  };
}
