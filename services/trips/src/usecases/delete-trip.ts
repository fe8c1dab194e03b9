import { NotFoundError, UnavailableError } from '../domain/errors';
import { Messages } from '../domain/limits';
import { isTripId, type TripDoc } from '../domain/trip';
import { tripDeletedEntry } from '../events/outbox';
import type { ChangeTripDeps } from './change-trip';
import { removeTripObjects } from './create-trip';

/** What a delete needs: what a change needs (the trip, its objects, the relay, the clock). */
export type DeleteTripDeps = ChangeTripDeps;

/** How many times a delete reads the trip again after a change landed between read and write. */
const DELETE_ATTEMPTS = 5;

/**
 * Deletes the caller's trip: soft-delete and `trip.deleted` in one single-document update (the
 * relay publishes it, then removes the document), then its photos (every variant) from MinIO.
 * Another user's trip, an unknown or malformed id: 404, nothing changes. If MinIO fails after
 * the trip is deleted the answer is still the deleted trip; the leftover objects are logged, and
 * the upload sweeper removes them once the relay has removed the document (`sweep-uploads`).
 *
 * Concurrency rests on single-document atomicity alone: the soft-delete matches only a live
 * trip at the version its event was made from (a change landing meanwhile makes it read the
 * trip again, so `trip.deleted` names the destinations the trip has), so of concurrent deletes
 * exactly one wins (the others find it gone: 404), and the relay removes only the outbox
 * entries it sent, so it never undoes the soft-delete.
 */
export async function deleteTrip(
  deps: DeleteTripDeps,
  ownerId: string,
  tripId: string,
): Promise<TripDoc> {
  if (!isTripId(tripId)) throw new NotFoundError('trip');
  for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
    const trip = await deps.trips.findOwned(tripId, ownerId);
    if (!trip) throw new NotFoundError('trip');
    const now = deps.now();
    if (!(await deps.trips.softDelete(trip, now, tripDeletedEntry(trip, now)))) continue;
    deps.relay?.kick();
    try {
      await removeTripObjects(deps, trip);
    } catch (err) {
      deps.logger.error({ err, tripId }, 'trip deleted but its photos could not all be removed');
    }
    return trip;
  }
  throw new UnavailableError(Messages.busy);
}
