import type { z } from 'zod';
import type {
  EventEnvelope,
  FriendRequested,
  FriendshipCreated,
  NotificationPushMessage,
} from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { acceptedNotice, recipientsOf } from '../domain/notifications';
import type { NotificationsStores } from './deps';
import { notify } from './notify';

type Payload<E extends { payload: z.ZodType }> = EventEnvelope<z.infer<E['payload']>>;

/** A friend request tells its addressee (`friend_request`). */
export function friendRequested(
  stores: NotificationsStores,
  client: PoolClient,
  event: Payload<typeof FriendRequested>,
  now: Date,
): Promise<NotificationPushMessage[]> {
  const { fromUserId, toUserId } = event.payload;
  return notify(
    stores,
    client,
    {
      eventId: event.id,
      kind: 'friend_request',
      actorId: fromUserId,
      subject: {},
      createdAt: new Date(event.occurredAt),
      recipients: recipientsOf([toUserId], fromUserId),
    },
    now,
  );
}

/**
 * A friendship is kept (for trips' fan-out) and tells the one who did not make it
 * (`friend_accepted`: `by`, or for an older event without it, the one who had received the
 * request); the maker's request notification is marked read.
 */
export async function friendshipCreated(
  stores: NotificationsStores,
  client: PoolClient,
  event: Payload<typeof FriendshipCreated>,
  now: Date,
): Promise<NotificationPushMessage[]> {
  const pair = event.payload.userIds;
  await stores.friendships.add(client, pair[0], pair[1]);
  const by = event.payload.by ?? (await stores.notifications.requestReceiver(client, pair));
  const notice = by === null ? null : acceptedNotice(pair, by);
  if (!notice) return [];
  await stores.notifications.markRequestAnswered(client, notice.actor, notice.recipient);
  return notify(
    stores,
    client,
    {
      eventId: event.id,
      kind: 'friend_accepted',
      actorId: notice.actor,
      subject: {},
      createdAt: new Date(event.occurredAt),
      recipients: [notice.recipient],
    },
    now,
  );
}

/** An ended friendship is forgotten (a later trip of one is not told to the other). */
export async function friendshipRemoved(
  stores: NotificationsStores,
  client: PoolClient,
  userIds: readonly [string, string],
): Promise<NotificationPushMessage[]> {
  await stores.friendships.remove(client, ...userIds);
  return [];
}
