import { mayRead, readAccess } from '../domain/access';
import { NotFoundError } from '../domain/errors';
import { isTripId } from '../domain/trip';
import type { TripRead, TripsStore } from '../store/trips';

export interface ReadTripDeps {
  trips: TripsStore;
  friendships: { areFriends(a: string, b: string): Promise<boolean> };
}

/**
 * A live trip as `userId` may read it (`domain/access.ts`: the owner always, a friend only
 * when the trip is `friends`): every read of a trip that may be someone else's goes through
 * here. NotFoundError (the same as an unknown or malformed id) for anyone else. The
 * friendship is looked up only when the rule depends on it.
 */
export async function readableTrip(
  deps: ReadTripDeps,
  userId: string,
  tripId: string,
): Promise<TripRead> {
  const trip = isTripId(tripId) ? await deps.trips.findLive(tripId) : null;
  if (!trip) throw new NotFoundError('trip');
  const isFriend =
    readAccess(trip, userId) === 'if-friend' &&
    (await deps.friendships.areFriends(userId, trip.ownerId));
  if (!mayRead(trip, userId, isFriend)) throw new NotFoundError('trip');
  return trip;
}

/** The owner's live trip; NotFoundError for anyone else's, an unknown or a malformed id. */
export async function readOwned(
  deps: Pick<ReadTripDeps, 'trips'>,
  ownerId: string,
  tripId: string,
): Promise<TripRead> {
  const trip = isTripId(tripId) ? await deps.trips.findOwned(tripId, ownerId) : null;
  if (!trip) throw new NotFoundError('trip');
  return trip;
}
