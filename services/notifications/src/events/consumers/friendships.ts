import {
  FriendRequested,
  FriendshipCreated,
  FriendshipRemoved,
  readEvent,
} from '@wayfarer/contracts';
import {
  friendRequested,
  friendshipCreated,
  friendshipRemoved,
} from '../../usecases/notify-friendship';
import type { Apply } from './apply';

/**
 * social's friendships: a request tells its addressee, a friendship tells the one who did not
 * make it, an ended one is forgotten.
 */
export const applyFriendshipEvent: Apply = async (stores, client, event, now) => {
  const requested = readEvent(FriendRequested, event);
  if (requested) return friendRequested(stores, client, requested, now);
  const created = readEvent(FriendshipCreated, event);
  if (created) return friendshipCreated(stores, client, created, now);
  const removed = readEvent(FriendshipRemoved, event);
  if (removed) return friendshipRemoved(stores, client, removed.payload.userIds);
  return [];
};
