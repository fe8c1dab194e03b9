import { FriendshipRemoved, readEvent } from '@wayfarer/contracts';
import { friendshipProjection, type MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { ChatStores } from '../../store';
import { endConversation } from '../../usecases/end-conversation';

/**
 * social's friendships (service-kit's projection); after a `friendship.removed` the pair's
 * conversation ends (also on a redelivery: ending it twice is harmless).
 */
export function friendshipsConsumer(
  stores: ChatStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
  leaveRoom: (userIds: [string, string], roomId: string) => Promise<void> | void,
): MongoProjectionSpec {
  return friendshipProjection(stores.friendships, {
    ...consumer,
    after: async (event) => {
      const removed = readEvent(FriendshipRemoved, event);
      if (removed) await endConversation(stores, removed.payload.userIds, leaveRoom);
    },
  });
}
