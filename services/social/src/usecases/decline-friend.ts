import { NotFoundError } from '../domain/errors';
import type { SocialDeps } from './deps';

/** The addressee declines `fromId`'s request: deleted, no event; not found when there is none. */
export async function declineFriend(
  deps: SocialDeps,
  callerId: string,
  fromId: string,
): Promise<void> {
  if (!(await deps.stores.requests.delete(callerId, fromId))) throw new NotFoundError('request');
}
