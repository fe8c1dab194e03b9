import type { TripPatch } from '@wayfarer/contracts';
import { applyTripPatch, type ExpectedVersion } from '../domain/edit';
import { newId } from '../domain/trip';
import { changeTrip, type ChangeTripDeps, type Changed } from './change-trip';

/**
 * `PATCH /api/trips/{id}`: the owner's trip changed by a validated patch (`applyTripPatch`:
 * its fields, destinations kept, changed, added, reordered or removed), written with its
 * `trip.updated` over the version the client named. A removed destination's photos leave the
 * bucket. A patch that changes nothing writes nothing (no new version, no event).
 */
export function editTrip(
  deps: ChangeTripDeps,
  ownerId: string,
  tripId: string,
  expected: ExpectedVersion,
  patch: TripPatch,
): Promise<Changed> {
  return changeTrip(deps, ownerId, tripId, expected, (trip) =>
    applyTripPatch(trip, patch, () => newId()),
  );
}
