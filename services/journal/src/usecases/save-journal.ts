import type { IdempotencyClaim, IdempotentOutcome, RecordedAnswer } from '@wayfarer/service-kit';
import { writeDecision } from '../domain/access';
import { JournalNotFoundError, OwnerOnlyError } from '../domain/errors';
import { journalSavedEntry } from '../events/outbox';
import type { JournalUseCaseDeps } from './deps';
import { relationTo } from './relation';

export interface SaveJournalInput {
  destinationId: string;
  content: string;
  /** The client's claimed time of the save (default: the server's). */
  date?: string;
}

/**
 * The owner saves a destination's journal, with its `journal.saved`, in one single-document
 * write. A friend is refused (`OwnerOnlyError`), anyone else cannot tell it exists
 * (`JournalNotFoundError`). With a `claim` (the request's `Idempotency-Key`) the save records
 * `answer` in the entry, and a retry of the entry's latest keyed save is answered that first
 * answer and writes nothing (no second `journal.saved`).
 */
export async function saveJournal(
  deps: JournalUseCaseDeps,
  userId: string,
  input: SaveJournalInput,
  claim: IdempotencyClaim | null,
  answer: RecordedAnswer,
): Promise<IdempotentOutcome<null>> {
  const { stores } = deps;
  const { destinationId, content } = input;
  const outcome = await stores.entries.idempotency.run(claim, async (stamp, notHoldingKey) => {
    const decision = writeDecision(await relationTo(stores, userId, destinationId));
    if (decision === 'not_found') throw new JournalNotFoundError();
    if (decision === 'forbidden') throw new OwnerOnlyError();

    const updatedAt = new Date();
    const save = {
      destinationId,
      ownerId: userId,
      content,
      date: input.date ?? updatedAt.toISOString(),
      updatedAt,
    };
    await stores.entries.save(
      save,
      [journalSavedEntry(save, updatedAt)],
      stamp(answer),
      notHoldingKey,
    );

    // trip.deleted may have landed between the check and the write: it tombstones the
    // destinations before deleting entries, so seeing no owner now means ours must go too.
    if ((await stores.destinations.ownerOf(destinationId)) === null) {
      await stores.entries.removeMany([destinationId]);
      throw new JournalNotFoundError();
    }
    return { answer, value: null };
  });
  if (!outcome.replayed) deps.relay?.kick();
  return outcome;
}
