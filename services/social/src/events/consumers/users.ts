import {
  readEvent,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { SocialStores } from '../../usecases/deps';
import { eraseUser, saveUser } from '../../usecases/project-user';

/**
 * auth's users (`auth.user`): `user.registered` and `user.updated` are the user's row (name,
 * picture, search key); `user.deleted` erases them.
 */
export async function applyUserEvent(
  stores: SocialStores,
  client: PoolClient,
  event: EventEnvelope,
): Promise<void> {
  const user = readEvent(UserRegistered, event) ?? readEvent(UserUpdated, event);
  if (user) return saveUser(stores, client, user.payload);
  const deleted = readEvent(UserDeleted, event);
  if (deleted) await eraseUser(stores, client, deleted.payload.userId);
}
