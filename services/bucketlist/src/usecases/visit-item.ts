import type { BucketListItem } from '@wayfarer/contracts';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { isItemId } from '../domain/visits';
import { enqueueItemVisited } from '../events/outbox';
import type { BucketListUseCaseDeps } from './deps';

/**
 * The checkbox: the caller's item is marked visited at `now` (kept with the time, not erased),
 * with its `bucketlist.item.visited`. An item already visited is answered as it is, with no
 * new event. Null when the caller has no such item.
 */
export async function visitItem(
  deps: BucketListUseCaseDeps,
  userId: string,
  id: string,
  now: Date,
): Promise<BucketListItem | null> {
  if (!isItemId(id)) return null;
  const item = await withTransaction(deps.pool, async (client) => {
    const visited = await deps.items.markVisited(client, userId, id, now);
    if (!visited) return deps.items.find(client, userId, id);
    await enqueueItemVisited(client, userId, visited);
    return visited;
  });
  if (item) deps.relay?.kick();
  return item;
}
