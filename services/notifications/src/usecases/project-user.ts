import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { NotificationsStores } from './deps';

/** A user as auth announced them (registered or updated): the actor's name and picture. */
export function saveUser(
  stores: NotificationsStores,
  client: PoolClient,
  user: { userId: string; name: string; profilePicture: string },
): Promise<void> {
  return stores.users.upsert(client, user);
}

/**
 * A closed account (auth's `user.deleted`): their notifications and every notification they
 * acted in, their friendships and their row go.
 */
export async function eraseUser(
  stores: NotificationsStores,
  client: PoolClient,
  userId: string,
): Promise<void> {
  await stores.notifications.eraseUser(client, userId);
  await stores.friendships.eraseUser(client, userId);
  await stores.users.erase(client, userId);
}
