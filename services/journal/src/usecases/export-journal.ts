import type { ExportedJournalEntry } from '../store/entries';
import type { JournalUseCaseDeps } from './deps';

/** The user's `journal` area of the account export: every entry they wrote, oldest first. */
export function exportJournal(
  { stores }: JournalUseCaseDeps,
  userId: string,
): Promise<ExportedJournalEntry[]> {
  return stores.entries.byOwner(userId);
}
