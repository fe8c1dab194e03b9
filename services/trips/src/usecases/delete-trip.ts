import { notFound, type Logger, type OutboxRelay } from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { Messages } from '../domain/limits';
import { isTripId, type TripDoc } from '../domain/trip';
import { tripDeletedEntry } from '../events/outbox';
import type { TripsRepo } from '../store/trips';
import { removeTripObjects } from './create-trip';

export interface DeleteTripDeps {
  trips: TripsRepo;
  photos: ObjectStore;
  relay?: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  now: () => Date;
}

/**
 * Deletes the caller's trip: soft-delete and `trip.deleted` in one single-document update (the
 * relay publishes it, then removes the document), then its photos (every variant) from MinIO.
 * Another user's trip, an unknown or malformed id: 404, nothing changes. If MinIO fails after
 * the trip is deleted the answer is still the deleted trip; the leftover objects are logged, and
 * the upload sweeper removes them once the relay has removed the document (`sweep-uploads`).
 *
 * Concurrency rests on single-document atomicity alone: the soft-delete matches only a live
 * trip, so of concurrent deletes exactly one wins (the others find it gone: 404), and the
 * relay removes only the outbox entries it sent, so it never undoes the soft-delete.
 */
export async function deleteTrip(
  deps: DeleteTripDeps,
  ownerId: string,
  tripId: string,
): Promise<TripDoc> {
  if (!isTripId(tripId)) throw notFound(Messages.tripNotFound);
  // A trip never changes after it is created, so the event can be made from this read.
  const trip = await deps.trips.findOwned(tripId, ownerId);
  if (!trip) throw notFound(Messages.tripNotFound);
  const now = deps.now();
  if (!(await deps.trips.softDelete(tripId, ownerId, now, tripDeletedEntry(trip, now)))) {
    throw notFound(Messages.tripNotFound);
  }
  deps.relay?.kick();
  try {
    await removeTripObjects(deps, trip);
  } catch (err) {
    deps.logger.error({ err, tripId }, 'trip deleted but its photos could not all be removed');
  }
  return trip;
}
