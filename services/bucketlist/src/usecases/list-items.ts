import type { BucketListItem } from '@wayfarer/contracts';
import type { BucketListUseCaseDeps } from './deps';

/** Every item of the caller, visited ones included (the client drops them). */
export function listItems(
  { items }: BucketListUseCaseDeps,
  userId: string,
): Promise<BucketListItem[]> {
  return items.list(userId);
}
