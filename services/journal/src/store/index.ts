import type { Db } from 'mongodb';
import type { FriendshipFences } from '@wayfarer/service-kit/mongo';
import { FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { DestinationsStore } from './destinations';
import { JournalEntriesStore } from './entries';

/** Everything journal keeps in its own MongoDB database. */
export interface JournalStores {
  destinations: DestinationsStore;
  entries: JournalEntriesStore;
  friendships: FriendshipProjection;
}

/** `fences`: what ends friends' access before the projection hears of it (`AccessFences`). */
export function createStores(db: Db, fences: FriendshipFences): JournalStores {
  return {
    destinations: new DestinationsStore(db),
    entries: new JournalEntriesStore(db),
    friendships: new FriendshipProjection(db, fences),
  };
}

/** Creates indexes (idempotent). */
export async function initStores(stores: JournalStores): Promise<void> {
  await stores.friendships.init();
}

/** The stores on `db`, prepared (`createStores`, then `initStores`). */
export async function openStores(db: Db, fences: FriendshipFences): Promise<JournalStores> {
  const stores = createStores(db, fences);
  await initStores(stores);
  return stores;
}
