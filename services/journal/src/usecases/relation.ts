import { relationOf, type Relation } from '../domain/access';
import type { JournalStores } from '../store';

/** The caller's relation to a destination, from journal's own projections. */
export async function relationTo(
  stores: Pick<JournalStores, 'destinations' | 'friendships'>,
  userId: string,
  destinationId: string,
): Promise<Relation> {
  const access = await stores.destinations.accessOf(destinationId);
  const ownerId = access?.ownerId ?? null;
  const friends =
    ownerId !== null && ownerId !== userId
      ? await stores.friendships.areFriends(userId, ownerId)
      : false;
  return relationOf({ userId, ownerId, friends, visibility: access?.visibility });
}
