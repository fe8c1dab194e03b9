import type { z } from 'zod';
import type { ChatMessageSent, EventEnvelope, NotificationPushMessage } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { recipientsOf } from '../domain/notifications';
import type { NotificationsStores } from './deps';
import { notify } from './notify';

/**
 * A chat message the recipient had no socket in the conversation for (`recipientInRoom`
 * false, decided by chat when it stored the message) tells them (`message`).
 */
export function messageSent(
  stores: NotificationsStores,
  client: PoolClient,
  event: EventEnvelope<z.infer<typeof ChatMessageSent.payload>>,
  now: Date,
): Promise<NotificationPushMessage[]> {
  if (event.payload.recipientInRoom) return Promise.resolve([]);
  const { senderId, recipientId, roomId, messageId, preview } = event.payload;
  return notify(
    stores,
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
}
