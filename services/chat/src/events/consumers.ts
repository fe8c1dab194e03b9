import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { FriendshipRemoved, readEvent, Topics } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { mongoIdempotentHandler } from '@wayfarer/service-kit/mongo';
import type { ChatStores } from '../store';

/**
 * chat's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group (shared by every chat instance: one
 * instance applies each event to the shared database).
 */
export const CONSUMERS = {
  users: 'chat-users',
  friendships: 'chat-friendships',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: ChatStores;
  logger: Logger;
  groupIds: { users: string; friendships: string };
  /** Called once a `friendship.removed` is applied: the sockets leave the pair's room. */
  onFriendshipRemoved: (userIds: [string, string]) => Promise<void> | void;
  /** Tests only: start a new group at the topic's end (see journal's consumers). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

export interface Projections {
  started: Promise<void>;
  consumers: { users: BackgroundConsumer; friendships: BackgroundConsumer };
  stop(): Promise<void>;
}

/** Starts chat's projections: users (auth events) and friendships (social events). */
export function startProjections(options: ProjectionOptions): Projections {
  const { kafka, db, stores, logger, skipHistory, maxRetryDelayMs } = options;
  const common = { kafka, logger, skipHistory, maxRetryDelayMs };

  const users = mongoIdempotentHandler(db, CONSUMERS.users, async (event) => {
    await stores.users.apply(event);
  });
  const friendships = mongoIdempotentHandler(db, CONSUMERS.friendships, async (event) => {
    await stores.friendships.apply(event);
  });

  const consumers = {
    users: startConsumerInBackground({
      ...common,
      groupId: options.groupIds.users,
      topics: [Topics.authUser],
      handle: async (event) => {
        await users(event);
      },
    }),
    friendships: startConsumerInBackground({
      ...common,
      groupId: options.groupIds.friendships,
      topics: [Topics.socialFriendship],
      handle: async (event) => {
        await friendships(event);
        // also on a redelivery: leaving a room twice is harmless
        const removed = readEvent(FriendshipRemoved, event);
        if (removed) await options.onFriendshipRemoved(removed.payload.userIds);
      },
    }),
  };
  const all = Object.values(consumers);
  return {
    started: Promise.all(all.map((c) => c.started)).then(() => undefined),
    consumers,
    async stop() {
      await Promise.allSettled(all.map((c) => c.stop()));
    },
  };
}
