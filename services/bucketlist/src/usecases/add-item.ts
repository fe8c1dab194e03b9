import type {
  BucketListItem,
  BucketListItemResponse,
  NewBucketListItem,
} from '@wayfarer/contracts';
import {
  recordedAnswer,
  type IdempotencyClaim,
  type IdempotentOutcome,
} from '@wayfarer/service-kit';
import { idempotentUseCase, inTransaction } from '@wayfarer/service-kit/pg';
import { enqueueItemAdded } from '../events/outbox';
import type { BucketListUseCaseDeps } from './deps';

/** `POST /api/bucketlist` as read: the caller, the validated place and its key's claim. */
export interface AddItemRequest {
  userId: string;
  input: NewBucketListItem;
  /** The `Idempotency-Key`'s claim (null without a key). */
  claim: IdempotencyClaim | null;
}

/**
 * `POST /api/bucketlist`, once per `Idempotency-Key`: the add (`insertItem`) around which
 * service-kit's `idempotentUseCase` claims the key in the add's own transaction. A retry with
 * the key is answered what the first was (201 and the item), adding nothing.
 */
export async function addItem(
  deps: BucketListUseCaseDeps,
  request: AddItemRequest,
): Promise<IdempotentOutcome<BucketListItem>> {
  const outcome = await idempotentUseCase(
    deps.pool,
    request.claim,
    (item: BucketListItem) => {
      const body: BucketListItemResponse = { data: item };
      return recordedAnswer(201, body);
    },
    () => insertItem(deps, request.userId, request.input),
  );
  if (!outcome.replayed) deps.relay?.kick();
  return outcome;
}

/** Adds a place with its `bucketlist.item.added`, in one transaction (the key's, if any). */
async function insertItem(
  deps: BucketListUseCaseDeps,
  userId: string,
  input: NewBucketListItem,
): Promise<BucketListItem> {
  return inTransaction(deps.pool, async (client) => {
    const item = await deps.items.insert(client, userId, input);
    await enqueueItemAdded(client, userId, item);
    return item;
  });
}
