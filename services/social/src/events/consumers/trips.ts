import {
  readEvent,
  TripCreated,
  TripDeleted,
  TripUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { SocialStores } from '../../usecases/deps';
import { tripCreated, tripDeleted, tripUpdated } from '../../usecases/project-trip';

/**
 * trips' trips (`trips.trip`): `trip.created` adds the trip friends see, `trip.updated`
 * replaces it with its newer version, `trip.deleted` takes it away for good; each at the
 * event's time.
 */
export async function applyTripEvent(
  stores: SocialStores,
  client: PoolClient,
  event: EventEnvelope,
): Promise<void> {
  const created = readEvent(TripCreated, event);
  if (created) return tripCreated(stores, client, created.payload, new Date(created.occurredAt));
  const updated = readEvent(TripUpdated, event);
  if (updated) return tripUpdated(stores, client, updated.payload, new Date(updated.occurredAt));
  const deleted = readEvent(TripDeleted, event);
  if (deleted) {
    await tripDeleted(stores, client, deleted.payload.tripId, new Date(deleted.occurredAt));
  }
}
