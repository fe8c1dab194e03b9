import type { Kafka } from 'kafkajs';
import {
  ChatMessageSent,
  FriendRequested,
  FriendshipCreated,
  FriendshipRemoved,
  readEvent,
  Topics,
  TripCreated,
  TripDeleted,
  TripUpdated,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  type EventEnvelope,
  type NotificationPushMessage,
  type Topic,
} from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool, type PoolClient } from '@wayfarer/service-kit/pg';
import {
  acceptedNotice,
  isKept,
  recipientsOf,
  tripIsShared,
  type NotificationDraft,
} from '../domain/notifications';
import {
  addFriendship,
  eraseUser,
  friendsOf,
  insertNotifications,
  markRequestAnswered,
  removeFriendship,
  removeTripNotifications,
  renameTripNotifications,
  requestReceiver,
  upsertUser,
  type NotificationsStore,
} from '../store/notifications';
import type { NotificationPusher } from './push';

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

/** Applies one event in the consumer's transaction; returns the notifications it stored. */
type Apply = (
  client: PoolClient,
  event: EventEnvelope,
  now: Date,
) => Promise<NotificationPushMessage[]>;

/** Stores `draft` unless what it tells of is older than the kept window (a late replay). */
const notify = (client: PoolClient, draft: NotificationDraft, now: Date) =>
  isKept(draft.createdAt, now) ? insertNotifications(client, draft, now) : Promise.resolve([]);

/**
 * auth's users: `user.registered` and `user.updated` are the actor's name and picture;
 * `user.deleted` erases the user, their notifications and those they acted in.
 */
export const applyUserEvent: Apply = async (client, event) => {
  const user = readEvent(UserRegistered, event) ?? readEvent(UserUpdated, event);
  if (user) await upsertUser(client, user.payload);
  const deleted = readEvent(UserDeleted, event);
  if (deleted) await eraseUser(client, deleted.payload.userId);
  return [];
};

/**
 * social's friendships: a request tells its addressee (`friend_request`); a friendship tells the
 * one who did not make it (`friend_accepted`: `by`, or for an older event without it, the one
 * who had received the request) and marks the maker's request notification read; friendships
 * are kept for trips' fan-out.
 */
export const applyFriendshipEvent: Apply = async (client, event, now) => {
  const createdAt = new Date(event.occurredAt);
  const requested = readEvent(FriendRequested, event);
  if (requested) {
    const { fromUserId, toUserId } = requested.payload;
    return notify(
      client,
      {
        eventId: event.id,
        kind: 'friend_request',
        actorId: fromUserId,
        subject: {},
        createdAt,
        recipients: recipientsOf([toUserId], fromUserId),
      },
      now,
    );
  }
  const created = readEvent(FriendshipCreated, event);
  if (created) {
    const pair = created.payload.userIds;
    await addFriendship(client, pair[0], pair[1]);
    const by = created.payload.by ?? (await requestReceiver(client, pair));
    const notice = by === null ? null : acceptedNotice(pair, by);
    if (!notice) return [];
    await markRequestAnswered(client, notice.actor, notice.recipient);
    return notify(
      client,
      {
        eventId: event.id,
        kind: 'friend_accepted',
        actorId: notice.actor,
        subject: {},
        createdAt,
        recipients: [notice.recipient],
      },
      now,
    );
  }
  const removed = readEvent(FriendshipRemoved, event);
  if (removed) await removeFriendship(client, ...removed.payload.userIds);
  return [];
};

/**
 * trips: a new trip that is not private tells each of its owner's friends (`friend_trip`); a
 * trip deleted or made private takes its notifications away, a renamed one renames them.
 */
export const applyTripEvent: Apply = async (client, event, now) => {
  const created = readEvent(TripCreated, event);
  if (created) {
    const { tripId, ownerId, name } = created.payload;
    if (!tripIsShared(created.payload)) return [];
    return notify(
      client,
      {
        eventId: event.id,
        kind: 'friend_trip',
        actorId: ownerId,
        subject: { tripId, name },
        createdAt: new Date(event.occurredAt),
        recipients: recipientsOf(await friendsOf(client, ownerId), ownerId),
      },
      now,
    );
  }
  const updated = readEvent(TripUpdated, event);
  if (updated) {
    const { tripId, name } = updated.payload;
    if (tripIsShared(updated.payload)) await renameTripNotifications(client, tripId, name);
    else await removeTripNotifications(client, tripId);
    return [];
  }
  const deleted = readEvent(TripDeleted, event);
  if (deleted) await removeTripNotifications(client, deleted.payload.tripId);
  return [];
};

/**
 * chat: a message the recipient had no socket in the conversation for (`recipientInRoom`
 * false, decided by chat when it stored the message) tells them (`message`).
 */
export const applyMessageEvent: Apply = async (client, event, now) => {
  const sent = readEvent(ChatMessageSent, event);
  if (!sent || sent.payload.recipientInRoom) return [];
  const { senderId, recipientId, roomId, messageId, preview } = sent.payload;
  return notify(
    client,
    {
      eventId: event.id,
      kind: 'message',
      actorId: senderId,
      subject: { roomId, messageId, preview },
      createdAt: new Date(event.occurredAt),
      recipients: recipientsOf([recipientId], senderId),
    },
    now,
  );
};

export interface ConsumersOptions {
  kafka: Kafka;
  pool: Pool;
  store: NotificationsStore;
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
 * commit, what it stored is pushed live and its recipients are trimmed to the 500 bound. A push
 * or a trim that fails is logged, never retried as the event (the next one trims again).
 */
export function startConsumers(options: ConsumersOptions): Consumers {
  const { pool, store, pusher, logger } = options;
  const start = (name: ConsumerName, topic: Topic, apply: Apply): BackgroundConsumer => {
    let stored: NotificationPushMessage[] = [];
    const handle = processedEventsHandler(pool, CONSUMERS[name], async (client, event) => {
      stored = await apply(client, event, options.now());
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
        if (!(await handle(event)) || stored.length === 0) return;
        const messages = stored;
        await pusher.push(messages);
        await store.trim(messages.map((m) => m.userId)).catch((err: unknown) => {
          logger.warn({ err }, 'trimming notifications failed');
        });
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
