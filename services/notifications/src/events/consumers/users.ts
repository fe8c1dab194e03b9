import { readEvent, UserDeleted, UserRegistered, UserUpdated } from '@wayfarer/contracts';
import { eraseUser, saveUser } from '../../usecases/project-user';
import type { Apply } from './apply';

/**
 * auth's users: `user.registered` and `user.updated` are the actor's name and picture;
 * `user.deleted` erases the user, their notifications and those they acted in.
 */
export const applyUserEvent: Apply = async (stores, client, event) => {
  const user = readEvent(UserRegistered, event) ?? readEvent(UserUpdated, event);
  if (user) await saveUser(stores, client, user.payload);
  const deleted = readEvent(UserDeleted, event);
  if (deleted) await eraseUser(stores, client, deleted.payload.userId);
  return [];
};
