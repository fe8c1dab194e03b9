import type { ExportedFriend } from '../store/friends';
import type { SocialDeps } from './deps';

/** The user's `friends` area of the account export: each friend, oldest friendship first. */
export function exportFriends(deps: SocialDeps, userId: string): Promise<ExportedFriend[]> {
  return deps.stores.friends.friendsSince(userId);
}
