import type { FriendStatsResponse } from '@wayfarer/contracts';
import { NotFoundError } from '../domain/errors';
import { friendStatsOf } from '../domain/stats';
import type { SocialDeps } from './deps';

/** The caller's figures from every live trip of theirs, private ones included (JSON text). */
export function ownStats(deps: SocialDeps, userId: string): Promise<Buffer> {
  return deps.statsPages.json(userId, 'own');
}

/**
 * A current friend's figures from the trips friends may see (`trips_for_friends`: no private
 * one), plus `sharedCountries` (the caller's side counts all their own trips). Not a friend,
 * an unknown id or the caller's own id: the same not found.
 */
export async function friendStats(
  deps: SocialDeps,
  userId: string,
  friendId: string,
): Promise<FriendStatsResponse> {
  if (!(await deps.stores.friendships.areFriends(userId, friendId))) {
    throw new NotFoundError('friendStats');
  }
  const [own, friend] = await Promise.all([
    deps.statsPages.stats(userId, 'own'),
    deps.statsPages.stats(friendId, 'friends'),
  ]);
  return friendStatsOf(own, friend);
}
