import type { FriendRequest } from '@wayfarer/contracts';
import type { SocialDeps } from './deps';

/** The friend requests waiting for the caller, oldest first. */
export function incomingRequests(deps: SocialDeps, userId: string): Promise<FriendRequest[]> {
  return deps.stores.requests.incoming(userId);
}
