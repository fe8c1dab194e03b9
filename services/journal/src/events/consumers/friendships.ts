import { friendshipProjection, type MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../../store';

/**
 * social's friendships: who may read whose journals (service-kit's projection, with the
 * access fences checked on every read).
 */
export function friendshipsConsumer(
  stores: JournalStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
): MongoProjectionSpec {
  return friendshipProjection(stores.friendships, consumer);
}
