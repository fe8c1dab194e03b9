import {
  readEvent,
  TripCreated,
  TripDeleted,
  TripUpdated,
  TRIP_FIRST_VERSION,
  visibilityOf,
  type EventEnvelope,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import type { JournalStores } from '../store';

/**
 * A trips event in journal's projection of destinations. Idempotent by itself (MongoDB has no
 * transaction to tie a processed-event marker to the effect):
 * - `trip.created`: insert-if-absent `{ _id: destinationId, ownerId, tripId, visibility,
 *   version: 1 }` per destination (`visibility`: `visibilityOf`, absent = friends);
 * - `trip.updated`: the same for the destinations after the change (the new ones are added;
 *   kept ones, and removed ones, which are tombstones, stay as they are), then the trip's
 *   visibility is set on its live destinations holding an older version, then the
 *   destinations it removed are tombstoned and their entries deleted. A destination id is
 *   never reused, so an older update arriving late can neither revive a removed destination
 *   nor remove a kept one; the version keeps it from undoing a newer visibility;
 * - `trip.deleted`: tombstone those destinations, then delete their journal entries.
 * Other event types are ignored. A payload that fails its schema throws a ZodError.
 */
export async function applyTripEvent(
  stores: Pick<JournalStores, 'destinations' | 'entries'>,
  event: EventEnvelope,
  logger?: Logger,
): Promise<void> {
  const created = readEvent(TripCreated, event);
  if (created) {
    const { tripId, ownerId, destinations } = created.payload;
    const conflicts = await stores.destinations.addTripDestinations(
      tripId,
      ownerId,
      destinations.map((d) => d.id),
      { visibility: visibilityOf(created.payload), version: TRIP_FIRST_VERSION },
    );
    if (conflicts.length > 0) {
      logger?.warn({ tripId, conflicts }, 'trip.created names destinations already known; kept');
    }
    return;
  }
  const updated = readEvent(TripUpdated, event);
  if (updated) {
    const { tripId, ownerId, destinations, removedDestinationIds, version } = updated.payload;
    const visibility = visibilityOf(updated.payload);
    const conflicts = await stores.destinations.addTripDestinations(
      tripId,
      ownerId,
      destinations.map((d) => d.id),
      { visibility, version },
    );
    if (conflicts.length > 0) {
      logger?.warn({ tripId, conflicts }, 'trip.updated names destinations of another trip; kept');
    }
    await stores.destinations.setTripVisibility(tripId, visibility, version);
    await removeDestinations(stores, tripId, removedDestinationIds, event);
    return;
  }
  const deleted = readEvent(TripDeleted, event);
  if (deleted) {
    const { tripId, destinations } = deleted.payload;
    await removeDestinations(
      stores,
      tripId,
      destinations.map((d) => d.id),
      event,
    );
  }
}

/** Tombstones destinations, then deletes their journal entries. */
async function removeDestinations(
  stores: Pick<JournalStores, 'destinations' | 'entries'>,
  tripId: string,
  ids: readonly string[],
  event: EventEnvelope,
): Promise<void> {
  if (ids.length === 0) return;
  // tombstones first: a save racing with this re-checks them after its write (save-journal)
  await stores.destinations.removeTripDestinations(tripId, ids, new Date(event.occurredAt));
  await stores.entries.removeMany(ids);
}
