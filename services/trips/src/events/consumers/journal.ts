import { JournalSaved, readEvent, Topics, type EventEnvelope } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { TripsStore } from '../../store/trips';
import { keepJournalStory } from '../../usecases/keep-journal-story';
import { CONSUMERS } from '.';

/**
 * journal's `journal.entry.v1`: each `journal.saved` with `content` kept as its destination's
 * text (`keepJournalStory`; service-kit's idempotent consumer: a redelivery is skipped by its
 * marker). An event without `content` (from before journal sent it) changes nothing; the save
 * is dated by the event's `occurredAt` (the payload's `date` is the client's).
 */
export function storiesProjection(
  trips: TripsStore,
  options: { groupId: string },
): MongoProjectionSpec {
  return {
    name: CONSUMERS.journalStories,
    groupId: options.groupId,
    topics: [Topics.journalEntry],
    apply: (event) => applyJournalSaved(trips, event),
  };
}

export async function applyJournalSaved(trips: TripsStore, event: EventEnvelope): Promise<void> {
  const saved = readEvent(JournalSaved, event);
  if (!saved || saved.payload.content === undefined) return;
  const { destinationId, ownerId, content } = saved.payload;
  await keepJournalStory(
    { trips },
    {
      destinationId,
      ownerId,
      content,
      savedAt: new Date(saved.occurredAt),
    },
  );
}
