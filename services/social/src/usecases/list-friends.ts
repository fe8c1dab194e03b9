import type { FriendSummary } from '@wayfarer/contracts';
import type { FriendsPage } from '../store/friends-cache';
import type { SocialDeps } from './deps';

/**
 * One page of the caller's friends with their trips, after the friend id `afterId`: from the
 * friends cache, else one query (the JSON as PostgreSQL wrote it); `last` the page's last
 * friend while more follow.
 */
export function friendsPage(
  deps: SocialDeps,
  userId: string,
  afterId: string | null,
  limit: number,
): Promise<FriendsPage> {
  return deps.friendsPages.page(userId, afterId, limit);
}

/** The caller's friends by name, without trips. */
export function friendSummaries(deps: SocialDeps, userId: string): Promise<FriendSummary[]> {
  return deps.stores.friends.friendSummaries(userId);
}
