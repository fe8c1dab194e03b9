import { NotFoundError } from '../domain/errors';
import type { SocialDeps } from './deps';

/**
 * A current friend's destination with every photo, as JSON text, for the info window of its
 * pin. Not a friend, a private or deleted trip's destination or an unknown id: the same not
 * found, so the caller cannot tell them apart.
 */
export async function friendDestination(
  deps: SocialDeps,
  userId: string,
  friendId: string,
  destinationId: string,
): Promise<string> {
  const body = await deps.stores.friends.friendDestinationJson(userId, friendId, destinationId);
  if (body === null) throw new NotFoundError('destination');
  return body;
}
