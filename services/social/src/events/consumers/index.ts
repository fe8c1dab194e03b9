import type { Kafka } from 'kafkajs';
import { Topics, type EventEnvelope } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool, type PoolClient } from '@wayfarer/service-kit/pg';
import type { SocialStores } from '../../usecases/deps';
import { applyTripEvent } from './trips';
import { applyUserEvent } from './users';

/**
 * social's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = { users: 'social-users', trips: 'social-trips' } as const;

export interface ConsumersOptions {
  kafka: Kafka;
  pool: Pool;
  stores: SocialStores;
  logger: Logger;
  /** The consumer group of each consumer: `groupId(env, CONSUMERS[name])`. */
  groupIds: Record<keyof typeof CONSUMERS, string>;
  /** Tests only: a new group starts at the topic's end as of now (service-kit). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

/**
 * The users and trips consumers: each event applied once (service-kit's PostgreSQL idempotent
 * handler, its marker in the same transaction as the change), joined in the background so HTTP
 * is served while Kafka is away. A payload failing its schema is logged and skipped.
 */
export function startConsumers(options: ConsumersOptions): {
  users: BackgroundConsumer;
  trips: BackgroundConsumer;
} {
  const start = (
    name: keyof typeof CONSUMERS,
    topic: string,
    apply: (stores: SocialStores, client: PoolClient, event: EventEnvelope) => Promise<void>,
  ) => {
    const handle = processedEventsHandler(options.pool, CONSUMERS[name], (client, event) =>
      apply(options.stores, client, event),
    );
    return startConsumerInBackground({
      kafka: options.kafka,
      logger: options.logger,
      groupId: options.groupIds[name],
      topics: [topic],
      skipHistory: options.skipHistory,
      maxRetryDelayMs: options.maxRetryDelayMs,
      handle: async (event) => {
        await handle(event);
      },
    });
  };
  return {
    users: start('users', Topics.authUser, applyUserEvent),
    trips: start('trips', Topics.tripsTrip, applyTripEvent),
  };
}
