import { withTransaction } from '@wayfarer/service-kit/pg';
import { isItemId, sameItinerary } from '../domain/visits';
import { enqueueItinerarySaved } from '../events/outbox';
import type { BucketListUseCaseDeps } from './deps';

/**
 * The full list, replacing the caller's item's saved one, with its `bucketlist.itinerary.saved`;
 * the same list again changes nothing and says nothing. Null when the caller has no such item.
 */
export async function saveItinerary(
  deps: BucketListUseCaseDeps,
  userId: string,
  id: string,
  itinerary: string[],
): Promise<string[] | null> {
  if (!isItemId(id)) return null;
  const saved = await withTransaction(deps.pool, async (client) => {
    const current = await deps.items.lockItinerary(client, userId, id);
    if (current === null) return null;
    if (sameItinerary(current, itinerary)) return current;
    await deps.items.setItinerary(client, id, itinerary);
    await enqueueItinerarySaved(client, userId, id, itinerary);
    return itinerary;
  });
  if (saved) deps.relay?.kick();
  return saved;
}
