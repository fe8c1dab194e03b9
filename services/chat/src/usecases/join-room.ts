import { ChatMessages } from '@wayfarer/contracts';
import { ChatRefusedError, roomRefused } from '../domain/errors';
import { roomOfCaller } from '../domain/messages';
import type { ChatUseCaseDeps } from './deps';

/**
 * The caller joins their conversation with a friend: the room id it names, refused when it is
 * malformed, not the caller's, or the other is not a friend now (access fences included).
 */
export async function joinRoom(
  { stores }: ChatUseCaseDeps,
  userId: string,
  roomId: unknown,
): Promise<string> {
  const room = roomOfCaller(userId, roomId);
  if (!room.ok) throw roomRefused(room.error);
  if (!(await stores.friendships.areFriends(userId, room.otherId))) {
    throw new ChatRefusedError('forbidden', ChatMessages.notInRoom);
  }
  return room.roomId;
}
