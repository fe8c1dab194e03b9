import { readDecision } from '../domain/access';
import { JournalNotFoundError } from '../domain/errors';
import type { JournalUseCaseDeps } from './deps';
import { relationTo } from './relation';

/**
 * A destination's journal text ('' when nothing is written yet), for its owner and the owner's
 * friends; anyone else cannot tell it exists (`JournalNotFoundError`).
 */
export async function readJournal(
  { stores }: JournalUseCaseDeps,
  userId: string,
  destinationId: string,
): Promise<string> {
  if (readDecision(await relationTo(stores, userId, destinationId)) !== 'allow') {
    throw new JournalNotFoundError();
  }
  return (await stores.entries.contentOf(destinationId)) ?? '';
}
