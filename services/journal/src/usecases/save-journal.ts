import {
  recordedAnswer,
  type IdempotencyClaim,
  type IdempotentOutcome,
} from '@wayfarer/service-kit';
import { JournalMessages, writeDecision } from '../domain/access';
import { JournalNotFoundError, OwnerOnlyError } from '../domain/errors';
import { journalSavedEntry } from '../events/outbox';
import type { SaveEntry } from '../store/entries';
import type { JournalUseCaseDeps } from './deps';
import { relationTo } from './relation';

/** `POST /api/journal` as read: the caller, the validated body and its key's claim. */
export interface SaveJournalRequest {
  userId: string;
  input: {
    destinationId: string;
    content: string;
    /** The client's claimed time of the save (default: the server's). */
    date?: string;
  };
  /** The `Idempotency-Key`'s claim (null without a key). */
  claim: IdempotencyClaim | null;
}

/**
 * `POST /api/journal`, once per `Idempotency-Key`: the save (`writeJournal`) around which
 * service-kit's `runUseCase` claims the key, whose record the entry's own write keeps. A retry
 * of the entry's latest keyed save is answered its first answer and writes nothing (no second
 * `journal.saved`).
 */
export async function saveJournal(
  deps: JournalUseCaseDeps,
  request: SaveJournalRequest,
): Promise<IdempotentOutcome<SaveEntry>> {
  const outcome = await deps.stores.entries.idempotency.runUseCase(
    request.claim,
    () => recordedAnswer(200, { message: JournalMessages.saved }),
    () => writeJournal(deps, request.userId, request.input),
  );
  if (!outcome.replayed) deps.relay?.kick();
  return outcome;
}

/**
 * The owner saves a destination's journal, with its `journal.saved`, in one single-document
 * write. A friend is refused (`OwnerOnlyError`), anyone else cannot tell it exists
 * (`JournalNotFoundError`).
 */
async function writeJournal(
  { stores }: JournalUseCaseDeps,
  userId: string,
  input: SaveJournalRequest['input'],
): Promise<SaveEntry> {
  const { destinationId, content } = input;
  const decision = writeDecision(await relationTo(stores, userId, destinationId));
  if (decision === 'not_found') throw new JournalNotFoundError();
  if (decision === 'forbidden') throw new OwnerOnlyError();

  const updatedAt = new Date();
  const save: SaveEntry = {
    destinationId,
    ownerId: userId,
    content,
    date: input.date ?? updatedAt.toISOString(),
    updatedAt,
  };
  await stores.entries.save(save, [journalSavedEntry(save, updatedAt)]);

  // trip.deleted may have landed between the check and the write: it tombstones the
  // destinations before deleting entries, so seeing no owner now means ours must go too.
  if ((await stores.destinations.ownerOf(destinationId)) === null) {
    await stores.entries.removeMany([destinationId]);
    throw new JournalNotFoundError();
  }
  return save;
}
