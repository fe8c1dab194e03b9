import type { z } from 'zod';
import type { EventEnvelope, NotificationPushMessage, TripCreated } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { recipientsOf, tripIsShared } from '../domain/notifications';
import type { NotificationsStores } from './deps';
import { notify } from './notify';

/** A new trip that is not private tells each of its owner's friends (`friend_trip`). */
export async function tripCreated(
  stores: NotificationsStores,
  client: PoolClient,
  event: EventEnvelope<z.infer<typeof TripCreated.payload>>,
  now: Date,
): Promise<NotificationPushMessage[]> {
  const { tripId, ownerId, name } = event.payload;
  if (!tripIsShared(event.payload)) return [];
  return notify(
    stores,
    client,
    {
      eventId: event.id,
      kind: 'friend_trip',
      actorId: ownerId,
      subject: { tripId, name },
      createdAt: new Date(event.occurredAt),
      recipients: recipientsOf(await stores.friendships.friendsOf(client, ownerId), ownerId),
    },
    now,
  );
}

/** A changed trip: made private, its notifications go; renamed, they say the new name. */
export async function tripUpdated(
  stores: NotificationsStores,
  client: PoolClient,
  trip: { tripId: string; name: string; visibility?: 'friends' | 'private' },
): Promise<NotificationPushMessage[]> {
  if (tripIsShared(trip)) await stores.notifications.renameTrip(client, trip.tripId, trip.name);
  else await stores.notifications.removeTrip(client, trip.tripId);
  return [];
}

/** A deleted trip takes its notifications away. */
export async function tripDeleted(
  stores: NotificationsStores,
  client: PoolClient,
  tripId: string,
): Promise<NotificationPushMessage[]> {
  await stores.notifications.removeTrip(client, tripId);
  return [];
}
