import type { Db } from 'mongodb';
import { FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { InboxStore } from './inbox';
import { MessagesStore } from './messages';
import { UsersProjection } from './users';

/** Everything chat keeps in its own MongoDB database. */
export interface ChatStores {
  messages: MessagesStore;
  users: UsersProjection;
  friendships: FriendshipProjection;
  /** Each user's conversations (issue 21), from chat's own `message.sent`. */
  inbox: InboxStore;
}

export function createStores(db: Db): ChatStores {
  return {
    messages: new MessagesStore(db),
    users: new UsersProjection(db),
    friendships: new FriendshipProjection(db),
    inbox: new InboxStore(db),
  };
}

/** Creates indexes (idempotent). */
export async function initStores(stores: ChatStores): Promise<void> {
  await stores.messages.init();
  await stores.friendships.init();
}

/** The stores on `db`, prepared (`createStores`, then `initStores`). */
export async function openStores(db: Db): Promise<ChatStores> {
  const stores = createStores(db);
  await initStores(stores);
  return stores;
}
