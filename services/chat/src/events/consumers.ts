import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { FriendshipRemoved, readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import {
  friendshipProjection,
  startMongoProjections,
  type MongoProjections,
} from '@wayfarer/service-kit/mongo';
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

export type Projections = MongoProjections<keyof ProjectionOptions['groupIds']>;

/** Starts chat's projections: users (auth events) and friendships (social events). */
export function startProjections(options: ProjectionOptions): Projections {
  const { groupIds, stores, onFriendshipRemoved } = options;
  return startMongoProjections({
    ...options,
    projections: {
      users: {
        name: CONSUMERS.users,
        groupId: groupIds.users,
        topics: [Topics.authUser],
        apply: async (event) => {
          await stores.users.apply(event);
          // a closed account: its conversations and friendships go too (each idempotent)
          const deleted = readEvent(UserDeleted, event);
          if (deleted) {
            await stores.messages.eraseUser(deleted.payload.userId);
            await stores.friendships.forget(deleted.payload.userId);
          }
        },
      },
      friendships: friendshipProjection(stores.friendships, {
        name: CONSUMERS.friendships,
        groupId: groupIds.friendships,
        // also on a redelivery: leaving a room twice is harmless
        after: async (event) => {
          const removed = readEvent(FriendshipRemoved, event);
          if (removed) await onFriendshipRemoved(removed.payload.userIds);
        },
      }),
    },
  });
}
