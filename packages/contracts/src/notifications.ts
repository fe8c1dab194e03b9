import { z } from 'zod';

/*
 * The notifications service's contract ("Know when a friend reaches out"): what the
 * bell lists (`GET /api/notifications`), how it is marked read (`POST /api/notifications/read`),
 * and what is pushed live over chat's socket.io connection (event `notification`).
 *
 * notifications is fed only by other services' events (docs/architecture.md, "Notifications"):
 * - `friend_request`: someone asked the caller (social's `friend.requested`);
 * - `friend_accepted`: someone accepted the caller's request, or asked back when the caller had
 *   asked (social's `friendship.created`, to the other one);
 * - `message`: a friend wrote while the caller had no socket in that conversation (chat's
 *   `message.sent` with `recipientInRoom: false`);
 * - `friend_trip`: a friend created a trip that is not private (trips' `trip.created`).
 */

export const NotificationLimits = {
  /** `GET /api/notifications`: notifications per page when `limit` is not given. */
  pageDefault: 20,
  /** `GET /api/notifications?limit=`: the largest page (more answers 400). */
  pageMax: 50,
  /** A notification older than this many days is dropped (never listed, then deleted). */
  keepDays: 90,
  /** At most this many notifications per user: older ones beyond it are dropped. */
  keepPerUser: 500,
  /** `POST /api/notifications/read`: the most ids one request may name. */
  readIdsMax: 100,
} as const;

export const NotificationKind = z.enum([
  'friend_request',
  'friend_accepted',
  'message',
  'friend_trip',
]);
export type NotificationKind = z.infer<typeof NotificationKind>;

/**
 * Who did it, as auth last announced them (`user.registered`, `user.updated`): `picture` is their
 * profile picture URL or contracts' DEFAULT_AVATAR; `name` is '' until auth's event arrives.
 */
export const NotificationActor = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string(),
});
export type NotificationActor = z.infer<typeof NotificationActor>;

const base = {
  /** The notification's id (a UUID): what `POST /api/notifications/read` names. */
  _id: z.string(),
  actor: NotificationActor,
  /** When it happened (the event's time), ISO 8601. */
  createdAt: z.string(),
  read: z.boolean(),
};

/**
 * One notification; `subject` depends on `kind`:
 * - `friend_request`: `{}` (the request is the actor's: `POST /api/acceptFriend/{actor.id}`);
 * - `friend_accepted`: `{}` (the actor is now a friend);
 * - `message`: `{roomId, messageId, preview}` (the conversation to open, the message's first
 *   `ChatLimits.previewMax` characters, as chat's `message.sent` carries them);
 * - `friend_trip`: `{tripId, name}` (the friend's new trip).
 */
export const Notification = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('friend_request'), subject: z.object({}) }),
  z.object({ ...base, kind: z.literal('friend_accepted'), subject: z.object({}) }),
  z.object({
    ...base,
    kind: z.literal('message'),
    subject: z.object({ roomId: z.string(), messageId: z.string(), preview: z.string() }),
  }),
  z.object({
    ...base,
    kind: z.literal('friend_trip'),
    subject: z.object({ tripId: z.string(), name: z.string() }),
  }),
]);
export type Notification = z.infer<typeof Notification>;

/**
 * `GET /api/notifications?limit=&cursor=`: the caller's notifications newest first (by
 * `createdAt`, then `_id`), one page of at most `limit` (default `NotificationLimits.pageDefault`,
 * 1 to `pageMax`); `nextCursor` (opaque, null on the last page) is sent back as `?cursor=` for
 * the next page. `unread` counts every unread notification of the caller (all pages). A bad
 * `limit` or a cursor the service did not make: 400. Only the last `keepDays` days and the
 * newest `keepPerUser` are kept.
 */
export const NotificationsResponse = z.object({
  notifications: z.array(Notification),
  unread: z.number().int().min(0),
  nextCursor: z.string().nullable(),
});
export type NotificationsResponse = z.infer<typeof NotificationsResponse>;

/**
 * `POST /api/notifications/read`: `{ids: [...]}` marks those of the caller's notifications read
 * (1 to `readIdsMax` UUIDs; ids of other users' notifications, or unknown ones, change nothing),
 * `{all: true}` every one of the caller's. Anything else: 400, nothing changed.
 */
export const MarkNotificationsRead = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(NotificationLimits.readIdsMax) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkNotificationsRead = z.infer<typeof MarkNotificationsRead>;

/** What `POST /api/notifications/read` answers: the caller's unread count after it. */
export const MarkNotificationsReadResponse = z.object({ unread: z.number().int().min(0) });
export type MarkNotificationsReadResponse = z.infer<typeof MarkNotificationsReadResponse>;

export const NotificationMessages = {
  /** After the parameter's name: `limit: must be ...` (service-kit names the field). */
  badLimit: `must be a whole number from 1 to ${NotificationLimits.pageMax}.`,
  badCursor: 'Invalid cursor: send back the nextCursor of the previous page.',
  badRead: `Send {"ids": [...]} (1 to ${NotificationLimits.readIdsMax} notification ids) or {"all": true}.`,
} as const;

/**
 * The live push. Every socket.io connection of the user (every tab and device, on any chat
 * instance) receives `NOTIFICATION_SOCKET_EVENT` with a `NotificationPushed` as soon as the
 * notification is stored. A client that was disconnected meanwhile reads
 * `GET /api/notifications` again on reconnecting (the push is not replayed).
 */
export const NOTIFICATION_SOCKET_EVENT = 'notification';

export const NotificationPushed = z.object({
  notification: Notification,
  /** The user's unread count with this one. */
  unread: z.number().int().min(0),
});
export type NotificationPushed = z.infer<typeof NotificationPushed>;

/**
 * The Redis pub/sub channel notifications publishes each stored notification on
 * (`NotificationPushMessage`, JSON); every chat instance subscribes and emits it to its own
 * sockets of `userId` (docs/architecture.md, "Notifications: the live push").
 */
export const NOTIFICATIONS_PUSH_CHANNEL = 'notifications:push';

export const NotificationPushMessage = NotificationPushed.extend({ userId: z.string() });
export type NotificationPushMessage = z.infer<typeof NotificationPushMessage>;

/** The push message on `NOTIFICATIONS_PUSH_CHANNEL` as chat reads it, or null when unreadable. */
export function parseNotificationPush(message: string): NotificationPushMessage | null {
  try {
    const parsed = NotificationPushMessage.safeParse(JSON.parse(message));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
