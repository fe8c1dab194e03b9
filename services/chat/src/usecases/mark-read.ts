import { ChatMessages } from '@wayfarer/contracts';
import { ChatRefusedError, roomRefused } from '../domain/errors';
import { roomOfCaller } from '../domain/messages';
import type { ChatUseCaseDeps } from './deps';

/**
 * The caller opened a conversation: its unread count becomes 0 as of `now`. Refused for a
 * malformed room or one that is not the caller's; not found when they have no such
 * conversation. Returns the room id.
 */
export async function markRead(
  { stores }: ChatUseCaseDeps,
  userId: string,
  roomId: string,
  now: Date,
): Promise<string> {
  const room = roomOfCaller(userId, roomId);
  if (!room.ok) throw roomRefused(room.error);
  if (!(await stores.inbox.markRead(userId, room.otherId, now))) {
    throw new ChatRefusedError('not_found', ChatMessages.conversationNotFound);
  }
  return room.roomId;
}
