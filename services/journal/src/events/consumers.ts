import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { Topics } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import {
  friendshipProjection,
  startMongoProjections,
  type MongoProjections,
} from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../store';
import { applyTripEvent, applyUserEvent } from './trips';

/**
 * journal's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  trips: 'journal-trips',
  friendships: 'journal-friendships',
  erasure: 'journal-erasure',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: JournalStores;
  logger: Logger;
  /** Kafka consumer groups: `groupId(env, CONSUMERS.x)` in production, unique ones in tests. */
  groupIds: { trips: string; friendships: string; erasure: string };
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

/** Both consumers' `crashes` count: tests observe a broker outage through it. */
export type Projections = MongoProjections<keyof ProjectionOptions['groupIds']>;

/**
 * Starts the projections journal keeps: destination owners (trips events), friendships
 * (social events), and the erasure of closed accounts (auth's `user.deleted`). Both handlers are idempotent and skip already-processed events;
 * an event whose payload fails its schema is logged and skipped (service-kit). The consumers
 * join in the background, retrying while Kafka is down, so HTTP is served from what the
 * projections already hold.
 */
export function startProjections(options: ProjectionOptions): Projections {
  const { groupIds, stores } = options;
  const log = options.logger.child({ component: 'projections' });
  return startMongoProjections({
    ...options,
    projections: {
      trips: {
        name: CONSUMERS.trips,
        groupId: groupIds.trips,
        topics: [Topics.tripsTrip],
        apply: (event) => applyTripEvent(stores, event, log),
      },
      friendships: friendshipProjection(stores.friendships, {
        name: CONSUMERS.friendships,
        groupId: groupIds.friendships,
      }),
      // a closed account (auth's user.deleted): its entries, destinations and friendships
      erasure: {
        name: CONSUMERS.erasure,
        groupId: groupIds.erasure,
        topics: [Topics.authUser],
        apply: (event) => applyUserEvent(stores, event),
      },
    },
  });
}
