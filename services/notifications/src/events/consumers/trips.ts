import { readEvent, TripCreated, TripDeleted, TripUpdated } from '@wayfarer/contracts';
import { tripCreated, tripDeleted, tripUpdated } from '../../usecases/notify-trip';
import type { Apply } from './apply';

/**
 * trips: a new trip that is not private tells its owner's friends; a trip deleted or made
 * private takes its notifications away, a renamed one renames them.
 */
export const applyTripEvent: Apply = async (stores, client, event, now) => {
  const created = readEvent(TripCreated, event);
  if (created) return tripCreated(stores, client, created, now);
  const updated = readEvent(TripUpdated, event);
  if (updated) return tripUpdated(stores, client, updated.payload);
  const deleted = readEvent(TripDeleted, event);
  if (deleted) return tripDeleted(stores, client, deleted.payload.tripId);
  return [];
};
