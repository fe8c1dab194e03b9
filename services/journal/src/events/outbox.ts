import { JournalSaved, makeEvent, Topics, type Topic } from '@wayfarer/contracts';
import { outboxEntry, type OutboxEntry } from '@wayfarer/service-kit/mongo';

/** Topics journal publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.journalEntry];

/**
 * The `journal.saved` outbox entry of a save, keyed by destination id; `content` is the saved
 * text (trips shows it on share links that include stories).
 */
export function journalSavedEntry(
  save: { destinationId: string; ownerId: string; date: string; content: string },
  now: Date,
): OutboxEntry {
  const event = makeEvent(
    JournalSaved,
    save.destinationId,
    {
      destinationId: save.destinationId,
      ownerId: save.ownerId,
      date: save.date,
      content: save.content,
    },
    now,
  );
  return outboxEntry(JournalSaved.topic, event);
}
