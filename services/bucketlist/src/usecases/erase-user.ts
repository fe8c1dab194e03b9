import { eraseFromOutbox, type PoolClient } from '@wayfarer/service-kit/pg';
import type { ItemsStore } from '../store/items';

/**
 * A closed account (auth's `user.deleted`), in the transaction that records the event as
 * processed: the user's places (visited ones and itineraries included), their idempotency keys
 * and every outbox row naming them.
 */
export async function eraseUser(
  client: PoolClient,
  items: ItemsStore,
  userId: string,
): Promise<void> {
  await items.eraseOwner(client, userId);
  await eraseFromOutbox(client, userId);
}
