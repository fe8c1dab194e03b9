import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Logger } from '@wayfarer/service-kit';
import { startMongoProjections, type MongoProjections } from '@wayfarer/service-kit/mongo';
import type { ChatStores } from '../../store';
import { friendshipsConsumer } from './friendships';
import { messagesConsumer } from './messages';
import { usersConsumer } from './users';

/**
 * chat's Kafka consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group (shared by every chat instance: one
 * instance applies each event to the shared database). The Redis channels chat hears
 * (revocations.ts, notification-pushes.ts) reach every instance and have no group.
 */
export const CONSUMERS = {
  /** auth's `auth.user.v1` (users.ts) */
  users: 'chat-users',
  /** social's friendships (friendships.ts) */
  friendships: 'chat-friendships',
  /** chat's own `message.sent`: each user's inbox (messages.ts) */
  conversations: 'chat-conversations',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: ChatStores;
  logger: Logger;
  groupIds: Record<keyof typeof CONSUMERS, string>;
  /** The sockets of both users (on every instance) leave their room: unfriending ends it. */
  leaveRoom: (userIds: [string, string], roomId: string) => Promise<void> | void;
  /** Tests only: start a new group at the topic's end (see journal's consumers). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

export type Projections = MongoProjections<keyof typeof CONSUMERS>;

/**
 * Starts chat's projections: users (auth events), friendships (social events) and the inbox
 * (its own `message.sent`).
 */
export function startProjections(options: ProjectionOptions): Projections {
  const { groupIds, stores } = options;
  const consumer = (key: keyof typeof CONSUMERS) => ({
    name: CONSUMERS[key],
    groupId: groupIds[key],
  });
  return startMongoProjections({
    ...options,
    projections: {
      users: usersConsumer(stores, consumer('users')),
      conversations: messagesConsumer(stores, consumer('conversations')),
      friendships: friendshipsConsumer(stores, consumer('friendships'), options.leaveRoom),
    },
  });
}
