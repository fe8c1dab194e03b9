import { isTripId } from '../domain/trip';
import type { TripsStore } from '../store/trips';

/** A destination's journal text as journal saved it (`journal.saved` with `content`). */
export interface SavedStory {
  destinationId: string;
  ownerId: string;
  content: string;
  /** When journal saved it (the event's `occurredAt`: journal's clock, not the client's). */
  savedAt: Date;
}

/**
 * Keeps a destination's journal text for share links that include stories, only in a live trip
 * of the same owner holding the destination: one conditional update of that trip
 * (`SharedTripsStore.saveStory`), so a trip deleted or a destination removed meanwhile either unsets
 * the text in its own update or is found already, and none outlives its destination. An older
 * save arriving after a newer one changes nothing. A destination id of a shape trips never
 * makes names no destination (and no field): ignored.
 */
export async function keepJournalStory(
  deps: { trips: TripsStore },
  story: SavedStory,
): Promise<void> {
  if (!isTripId(story.destinationId)) return;
  await deps.trips.shared.saveStory(story.destinationId, story.ownerId, {
    content: story.content,
    savedAt: story.savedAt,
  });
}
