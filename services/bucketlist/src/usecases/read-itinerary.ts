import { isItemId } from '../domain/visits';
import type { BucketListUseCaseDeps } from './deps';

/** The caller's item's itinerary; null when the caller has no such item. */
export async function readItinerary(
  { items }: BucketListUseCaseDeps,
  userId: string,
  id: string,
): Promise<string[] | null> {
  return isItemId(id) ? items.itinerary(userId, id) : null;
}
