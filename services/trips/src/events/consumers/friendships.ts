import {
  friendshipProjection,
  type FriendshipProjection,
  type MongoProjectionSpec,
} from '@wayfarer/service-kit/mongo';
import { CONSUMERS } from '.';

/**
 * social's `social.friendship.v1` events into trips' read model of friendships (who may see
 * whose photos; service-kit's `friendshipProjection`).
 */
export function friendshipsConsumer(
  friendships: FriendshipProjection,
  options: { groupId: string },
): MongoProjectionSpec {
  return friendshipProjection(friendships, {
    name: CONSUMERS.friendships,
    groupId: options.groupId,
  });
}
