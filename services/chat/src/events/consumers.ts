import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import {
  ChatMessageSent,
  FriendshipRemoved,
  readEvent,
  Topics,
  UserDeleted,
  UserUpdated,
} from '@wayfarer/contracts';
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
  // chat's own message.sent: each user's inbox (issue 21)
  conversations: 'chat-conversations',
} as const;

export interface ProjectionOptions {
  kafka: Kafka;
  db: Db;
  stores: ChatStores;
  logger: Logger;
  groupIds: Record<keyof typeof CONSUMERS, string>;
  /** Called once a `friendship.removed` is applied: the sockets leave the pair's room. */
  onFriendshipRemoved: (userIds: [string, string]) => Promise<void> | void;
  /** Tests only: start a new group at the topic's end (see journal's consumers). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

export type Projections = MongoProjections<keyof ProjectionOptions['groupIds']>;

/**
 * Starts chat's projections: users (auth events), friendships (social events) and the inbox
 * (its own `message.sent`).
 */
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
            await stores.inbox.eraseUser(deleted.payload.userId);
          }
          // a new name or picture: the inboxes showing the user follow
          const updated = readEvent(UserUpdated, event);
          if (updated)
            await stores.inbox.renameFriend(
              updated.payload.userId,
              await stores.users.profile(updated.payload.userId),
            );
        },
      },
      conversations: {
        name: CONSUMERS.conversations,
        groupId: groupIds.conversations,
        topics: [Topics.chatMessage],
        // idempotent and order-safe per entry (store/inbox.ts)
        apply: async (event) => {
          const sent = readEvent(ChatMessageSent, event);
          if (sent) await stores.inbox.applyMessage(sent.payload, (id) => stores.users.profile(id));
        },
      },
      friendships: friendshipProjection(stores.friendships, {
        name: CONSUMERS.friendships,
        groupId: groupIds.friendships,
        // also on a redelivery: leaving a room twice is harmless
        after: async (event) => {
          const removed = readEvent(FriendshipRemoved, event);
          if (removed) {
            await onFriendshipRemoved(removed.payload.userIds);
            // the conversation leaves both inboxes (its history stays, unreadable meanwhile)
            await stores.inbox.removePair(...removed.payload.userIds);
          }
        },
      }),
    },
  });
}
