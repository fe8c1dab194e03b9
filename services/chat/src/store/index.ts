import type { Db } from 'mongodb';
import type { FriendshipFences } from '@wayfarer/service-kit/mongo';
import { FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { InboxStore } from './inbox';
import { MessagesStore } from './messages';
import { UsersStore } from './users';

/** Everything chat keeps in its own MongoDB database. */
export interface ChatStores {
  messages: MessagesStore;
  users: UsersStore;
  friendships: FriendshipProjection;
  /** Each user's conversations, from chat's own `message.sent`. */
  inbox: InboxStore;
}

/** `fences`: what ends friends' access before the projection hears of it (`AccessFences`). */
export function createStores(db: Db, fences: FriendshipFences): ChatStores {
  return {
    messages: new MessagesStore(db),
    users: new UsersStore(db),
    friendships: new FriendshipProjection(db, fences),
    inbox: new InboxStore(db),
  };
}

/** Creates indexes (idempotent). */
export async function initStores(stores: ChatStores): Promise<void> {
  await stores.messages.init();
  await stores.friendships.init();
}

/** The stores on `db`, prepared (`createStores`, then `initStores`). */
export async function openStores(db: Db, fences: FriendshipFences): Promise<ChatStores> {
  const stores = createStores(db, fences);
  await initStores(stores);
  return stores;
}
