import {
  ChatMessageSent,
  makeEvent,
  messagePreview,
  Topics,
  type Topic,
} from '@wayfarer/contracts';
import { outboxEntry, type OutboxEntry } from '@wayfarer/service-kit/mongo';
import type { MessageDoc } from '../store/messages';

/** Topics chat publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.chatMessage];

/**
 * The `message.sent` of a stored message, written in the message's own document (its outbox),
 * keyed by the room id so a conversation's messages reach a consumer in order. `recipientInRoom`:
 * whether the recipient had a socket in the room when it was stored (socket/presence.ts).
 */
export function messageSentEntry(
  doc: Pick<MessageDoc, '_id' | 'roomId' | 'senderId' | 'content' | 'timestamp'>,
  recipientId: string,
  recipientInRoom: boolean,
): OutboxEntry {
  const event = makeEvent(
    ChatMessageSent,
    doc.roomId,
    {
      messageId: doc._id.toHexString(),
      roomId: doc.roomId,
      senderId: doc.senderId,
      recipientId,
      preview: messagePreview(doc.content),
      timestamp: doc.timestamp.toISOString(),
      recipientInRoom,
    },
    doc.timestamp,
  );
  return outboxEntry(Topics.chatMessage, event);
}
