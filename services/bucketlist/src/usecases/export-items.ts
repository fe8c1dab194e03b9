import type { ExportedBucketListItem } from '../store/items';
import type { BucketListUseCaseDeps } from './deps';

/** The user's `bucketlist` area of the account export: every place, each with its itinerary. */
export function exportItems(
  { items }: BucketListUseCaseDeps,
  userId: string,
): Promise<ExportedBucketListItem[]> {
  return items.listWithItineraries(userId);
}
