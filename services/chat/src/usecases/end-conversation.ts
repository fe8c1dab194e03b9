import { roomIdOf } from '@wayfarer/contracts';
import type { ChatStores } from '../store';

/**
 * Two users are no longer friends (social's `friendship.removed`, already in the friendships
 * projection): their sockets leave the pair's room (`leaveRoom`, on every instance) and the
 * conversation leaves both inboxes (its history stays, unreadable meanwhile). Harmless twice.
 */
export async function endConversation(
  stores: ChatStores,
  userIds: [string, string],
  leaveRoom: (userIds: [string, string], roomId: string) => Promise<void> | void,
): Promise<void> {
  await leaveRoom(userIds, roomIdOf(...userIds));
  await stores.inbox.removePair(...userIds);
}
