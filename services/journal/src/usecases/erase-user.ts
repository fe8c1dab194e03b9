import type { JournalStores } from '../store';

/**
 * A closed account (auth's `user.deleted`): the user's journal entries, destinations and
 * friendships. Idempotent. trips' `trip.deleted` of each of their trips may come later: it
 * leaves only tombstones naming no owner.
 */
export async function eraseUser(
  stores: Pick<JournalStores, 'destinations' | 'entries' | 'friendships'>,
  userId: string,
): Promise<void> {
  await stores.entries.eraseOwner(userId);
  await stores.destinations.eraseOwner(userId);
  await stores.friendships.forget(userId);
}
