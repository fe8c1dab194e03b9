import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Logger } from '@wayfarer/service-kit';
import { startMongoProjections, type MongoProjections } from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../../store';
import { friendshipsConsumer } from './friendships';
import { tripsConsumer } from './trips';
import { usersConsumer } from './users';

/**
 * journal's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  /** trips' `trips.trip.v1` (trips.ts) */
  trips: 'journal-trips',
  /** social's friendships (friendships.ts) */
  friendships: 'journal-friendships',
  /** auth's `auth.user.v1`: the erasure of closed accounts (users.ts) */
  erasure: 'journal-erasure',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: JournalStores;
  logger: Logger;
  /** Kafka consumer groups: `groupId(env, CONSUMERS.x)` in production, unique ones in tests. */
  groupIds: Record<keyof typeof CONSUMERS, string>;
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

/** The consumers' `crashes` counts: tests observe a broker outage through them. */
export type Projections = MongoProjections<keyof typeof CONSUMERS>;

/**
 * Starts the projections journal keeps: destination owners (trips events), friendships
 * (social events), and the erasure of closed accounts (auth's `user.deleted`). Every handler
 * is idempotent and skips already-processed events; an event whose payload fails its schema
 * is logged and skipped (service-kit). The consumers join in the background, retrying while
 * Kafka is down, so HTTP is served from what the projections already hold.
 */
export function startProjections(options: ProjectionOptions): Projections {
  const { groupIds, stores } = options;
  const log = options.logger.child({ component: 'projections' });
  const consumer = (key: keyof typeof CONSUMERS) => ({
    name: CONSUMERS[key],
    groupId: groupIds[key],
  });
  return startMongoProjections({
    ...options,
    projections: {
      trips: tripsConsumer(stores, consumer('trips'), log),
      friendships: friendshipsConsumer(stores, consumer('friendships')),
      erasure: usersConsumer(stores, consumer('erasure')),
    },
  });
}
