import type { FriendsPage } from '../store/friends-cache';
import type { SocialDeps } from './deps';

/**
 * One page of the feed (contracts' FeedResponse as JSON text): the caller's friends' shared
 * trips newest first after `cursor`, from the feed cache, else one query.
 */
export function feedPage(
  deps: SocialDeps,
  userId: string,
  cursor: string | null,
  limit: number,
): Promise<FriendsPage> {
  return deps.feedPages.get({ userId, afterId: cursor, limit });
}
