import type { Db } from 'mongodb';
import { FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { DestinationsStore } from './destinations';
import { JournalEntriesStore } from './entries';

/** Everything journal keeps in its own MongoDB database. */
export interface JournalStores {
  destinations: DestinationsStore;
  entries: JournalEntriesStore;
  friendships: FriendshipProjection;
}

export function createStores(db: Db): JournalStores {
  return {
    destinations: new DestinationsStore(db),
    entries: new JournalEntriesStore(db),
    friendships: new FriendshipProjection(db),
  };
}

/** Creates indexes (idempotent). */
export async function initStores(stores: JournalStores): Promise<void> {
  await stores.friendships.init();
}

/** The stores on `db`, prepared (`createStores`, then `initStores`). */
export async function openStores(db: Db): Promise<JournalStores> {
  const stores = createStores(db);
  await initStores(stores);
  return stores;
}
