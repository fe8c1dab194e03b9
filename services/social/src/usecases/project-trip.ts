import type { z } from 'zod';
import { visibilityOf, type TripCreated, type TripUpdated } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { destinationCountries } from '../domain/stats';
import { friendTrip, type TripCreatedPayload } from '../domain/trips';
import type { ProjectedTrip } from '../store/trips';
import type { SocialStores } from './deps';

/** What social keeps of a trip's event: friends' view and each destination's country. */
function projectTrip(payload: TripCreatedPayload): ProjectedTrip {
  return { ...friendTrip(payload), countries: destinationCountries(payload.destinations) };
}

/**
 * A new trip (trips' `trip.created`): what friends see of it and each destination's country.
 * A private trip (`visibility`, absent = friends) is kept but never shown to friends.
 */
export function tripCreated(
  stores: SocialStores,
  client: PoolClient,
  trip: z.infer<typeof TripCreated.payload>,
  at: Date,
): Promise<void> {
  return stores.trips.add(client, trip.ownerId, projectTrip(trip), at, visibilityOf(trip));
}

/**
 * A changed trip (`trip.updated`: name, dates, destinations, photos, visibility): replaces
 * what friends see when its version is newer than the one held.
 */
export function tripUpdated(
  stores: SocialStores,
  client: PoolClient,
  trip: z.infer<typeof TripUpdated.payload>,
  at: Date,
): Promise<void> {
  const { ownerId, version } = trip;
  return stores.trips.update(client, ownerId, projectTrip(trip), version, at, visibilityOf(trip));
}

/** A deleted trip (`trip.deleted`) is taken away for good (a tombstone). */
export function tripDeleted(
  stores: SocialStores,
  client: PoolClient,
  tripId: string,
  at: Date,
): Promise<void> {
  return stores.trips.remove(client, tripId, at);
}
