import { JournalSaved, readEvent, Topics, type EventEnvelope } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { TripsRepo } from '../store/trips';

/** trips' consumer of journal's `journal.entry.v1` (`journal.saved`): group and marker key. */
export const JOURNAL_STORIES_CONSUMER = 'trips-journal-stories';

/**
 * Keeps each destination's journal text for share links that include stories (issue 20):
 * `journal.saved` with `content` into `journal_stories` (service-kit's idempotent consumer:
 * a redelivery is skipped by its marker). An event without `content` (from before journal sent
 * it) changes nothing; an older save arriving after a newer one changes nothing (compared by
 * the event's `occurredAt`, journal's clock when it saved: the payload's `date` is the
 * client's). Kept only for a live trip of the same owner holding the destination, checked
 * again after the write: a trip deleted (or a destination removed) meanwhile removes its text
 * after its delete, or finds it written and removes it, so none outlives its destination.
 */
export function storiesProjection(
  trips: TripsRepo,
  options: { groupId: string },
): MongoProjectionSpec {
  return {
    name: JOURNAL_STORIES_CONSUMER,
    groupId: options.groupId,
    topics: [Topics.journalEntry],
    apply: (event) => applyJournalSaved(trips, event),
  };
}

export async function applyJournalSaved(trips: TripsRepo, event: EventEnvelope): Promise<void> {
  const saved = readEvent(JournalSaved, event);
  if (!saved || saved.payload.content === undefined) return;
  const { destinationId, ownerId, content } = saved.payload;
  if (!(await trips.hasLiveDestination(destinationId, ownerId))) return;
  await trips.stories.save({
    _id: destinationId,
    ownerId,
    content,
    savedAt: new Date(saved.occurredAt),
  });
  if (!(await trips.hasLiveDestination(destinationId, ownerId))) {
    await trips.stories.removeDestinations([destinationId]);
  }
}
