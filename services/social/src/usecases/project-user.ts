import { eraseFromOutbox, type PoolClient } from '@wayfarer/service-kit/pg';
import { enqueueFriendshipErased } from '../events/outbox';
import type { SocialStores } from './deps';

/**
 * A user as auth announced them (registered, or a new name or picture): friends' lists,
 * requests and search show the new ones at once (the friends cache hears of the row).
 */
export function saveUser(
  stores: SocialStores,
  client: PoolClient,
  user: { userId: string; name: string; profilePicture: string },
): Promise<void> {
  return stores.users.upsert(client, user);
}

/**
 * A closed account (auth's `user.deleted`), in the consumer's transaction: their friendships
 * (both sides), requests (both ways), trips as friends saw them, idempotency keys, row and
 * outbox rows go, and each friendship they had is announced as erased (`friendship.removed`,
 * `erased`), so trips, journal and chat forget the pairs after any earlier event of the pair.
 */
export async function eraseUser(
  stores: SocialStores,
  client: PoolClient,
  userId: string,
): Promise<void> {
  const friends = await stores.friendships.eraseUser(client, userId);
  await stores.requests.eraseUser(client, userId);
  await stores.trips.eraseOwner(client, userId);
  await stores.users.erase(client, userId);
  await eraseFromOutbox(client, userId);
  for (const friend of friends) await enqueueFriendshipErased(client, userId, friend);
}
