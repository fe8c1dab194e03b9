import type { Friend } from '@wayfarer/contracts';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { NotFoundError } from '../domain/errors';
import { enqueueFriendshipCreated } from '../events/outbox';
import type { SocialDeps } from './deps';

/**
 * The addressee accepts `fromId`'s request: under the pair's lock the two become friends
 * (`friendship.created`, the caller named as the one who made it), then the new friend as the
 * list shows them. No such request to the caller (one addressed to someone else included):
 * not found, nothing changes.
 */
export async function acceptFriend(
  deps: SocialDeps,
  callerId: string,
  fromId: string,
): Promise<Friend> {
  const { friendships, requests, friends } = deps.stores;
  const accepted = await withTransaction(deps.pool, async (client) => {
    await friendships.lockPair(client, callerId, fromId);
    if (!(await requests.exists(client, callerId, fromId))) return false;
    await friendships.befriend(client, callerId, fromId);
    await enqueueFriendshipCreated(client, callerId, fromId);
    return true;
  });
  if (!accepted) throw new NotFoundError('request');
  deps.friendshipsChanged([callerId, fromId]);
  deps.relay?.kick();
  const newFriend = await friends.friend(callerId, fromId);
  // unfriended between the commit and this read: the request was accepted all the same
  if (!newFriend) throw new NotFoundError('friendship');
  return newFriend;
}
