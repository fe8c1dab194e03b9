import type { BucketListItem, NewBucketListItem } from '@wayfarer/contracts';
import type { IdempotencyClaim, IdempotentOutcome, RecordedAnswer } from '@wayfarer/service-kit';
import { idempotentTransaction } from '@wayfarer/service-kit/pg';
import { enqueueItemAdded } from '../events/outbox';
import type { BucketListUseCaseDeps } from './deps';

/**
 * Adds a place with its `bucketlist.item.added`, in one transaction. With a `claim` (the
 * request's `Idempotency-Key`) the key and `answerOf(item)` are recorded in that same
 * transaction, and a retry with the key is answered what the first was, adding nothing
 * (service-kit `idempotentTransaction`).
 */
export async function addItem(
  deps: BucketListUseCaseDeps,
  userId: string,
  input: NewBucketListItem,
  claim: IdempotencyClaim | null,
  answerOf: (item: BucketListItem) => RecordedAnswer,
): Promise<IdempotentOutcome<BucketListItem>> {
  const outcome = await idempotentTransaction(deps.pool, claim, async (client) => {
    const item = await deps.items.insert(client, userId, input);
    await enqueueItemAdded(client, userId, item);
    return { answer: answerOf(item), value: item };
  });
  if (!outcome.replayed) deps.relay?.kick();
  return outcome;
}
