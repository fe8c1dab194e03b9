import { JournalSaved, readEvent, Topics, type EventEnvelope } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import { isTripId } from '../domain/trip';
import type { TripsRepo } from '../store/trips';

/** trips' consumer of journal's `journal.entry.v1` (`journal.saved`): group and marker key. */
export const JOURNAL_STORIES_CONSUMER = 'trips-journal-stories';

/**
 * Keeps each destination's journal text for share links that include stories (issue 20):
 * `journal.saved` with `content` into the trip holding the destination (`stories`; service-kit's
 * idempotent consumer: a redelivery is skipped by its marker). An event without `content` (from
 * before journal sent it) changes nothing; an older save arriving after a newer one changes
 * nothing (compared by the event's `occurredAt`, journal's clock when it saved: the payload's
 * `date` is the client's). Kept only for a live trip of the same owner holding the
 * destination: one conditional update of that trip (`TripsRepo.saveStory`), so a trip deleted
 * or a destination removed meanwhile either unsets the text in its own update or is found
 * already, and none outlives its destination. A destination id of a shape trips never makes
 * names no destination (and no field): ignored.
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
  if (!isTripId(destinationId)) return;
  await trips.saveStory(destinationId, ownerId, { content, savedAt: new Date(saved.occurredAt) });
}
