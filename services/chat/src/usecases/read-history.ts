import {
  ChatMessages,
  type ConversationMessage,
  type ConversationResponse,
} from '@wayfarer/contracts';
import { ChatRefusedError, roomRefused } from '../domain/errors';
import { decodeCursor, encodeCursor, roomOfCaller } from '../domain/messages';
import type { ChatUseCaseDeps } from './deps';

/**
 * One page of the caller's conversation with a friend, up to `limit` messages older than
 * `before` (a cursor of the previous page), shown oldest first, with the cursor of the next
 * older page (null when there is none). Refused for a malformed room or cursor, a room that is
 * not the caller's, or a friend no longer.
 */
export async function readHistory(
  { stores }: ChatUseCaseDeps,
  userId: string,
  query: { roomId: string; before?: string; limit: number },
): Promise<ConversationResponse> {
  const room = roomOfCaller(userId, query.roomId);
  if (!room.ok) throw roomRefused(room.error);
  const { before } = query;
  const cursor = before === undefined ? null : decodeCursor(before);
  if (before !== undefined && cursor === null) {
    throw new ChatRefusedError('invalid', ChatMessages.badCursor);
  }
  if (!(await stores.friendships.areFriends(userId, room.otherId))) {
    throw new ChatRefusedError('forbidden', ChatMessages.notFriends);
  }
  const page = await stores.messages.page(room.roomId, cursor, query.limit);
  const users = await stores.users.byIds([...new Set(page.messages.map((m) => m.senderId))]);
  const messages: ConversationMessage[] = page.messages.reverse().map((m) => {
    const sender = users.get(m.senderId);
    return {
      _id: m._id.toHexString(),
      sender: { _id: m.senderId, name: sender?.name ?? '', email: sender?.email ?? '' },
      content: m.content,
      timestamp: m.timestamp.toISOString(),
      conversation: room.roomId,
    };
  });
  const oldest = page.messages[0];
  return {
    conversation: { _id: room.roomId, messages },
    nextCursor:
      page.more && oldest
        ? encodeCursor({ timestampMs: oldest.timestamp.getTime(), id: oldest._id.toHexString() })
        : null,
  };
}
