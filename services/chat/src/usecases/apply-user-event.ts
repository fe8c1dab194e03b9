import {
  readEvent,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import type { ChatStores } from '../store';

/**
 * auth's user events in chat's read models (each step idempotent): a registered user is known
 * by name, email and picture; a new name or picture reaches the inboxes showing the user; a
 * closed account's document, conversations (both sides), friendships and inbox entries go.
 */
export async function applyUserEvent(stores: ChatStores, event: EventEnvelope): Promise<void> {
  const registered = readEvent(UserRegistered, event);
  if (registered) {
    const { userId, name, email, profilePicture } = registered.payload;
    await stores.users.register(userId, { name, email, picture: profilePicture });
    return;
  }
  const updated = readEvent(UserUpdated, event);
  if (updated) {
    const { userId, name, profilePicture } = updated.payload;
    await stores.users.rename(userId, { name, picture: profilePicture });
    await stores.inbox.renameFriend(userId, await stores.users.profile(userId));
    return;
  }
  const deleted = readEvent(UserDeleted, event);
  if (deleted) {
    const { userId } = deleted.payload;
    await stores.users.remove(userId);
    await stores.messages.eraseUser(userId);
    await stores.friendships.forget(userId);
    await stores.inbox.eraseUser(userId);
  }
}
