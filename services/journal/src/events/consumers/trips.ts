import { Topics } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../../store';
import { applyTripEvent } from '../../usecases/apply-trip-event';

/** trips' `trips.trip.v1`: destination owners and visibility, removed destinations' entries. */
export function tripsConsumer(
  stores: JournalStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
  logger: Logger,
): MongoProjectionSpec {
  return {
    ...consumer,
    topics: [Topics.tripsTrip],
    apply: (event) => applyTripEvent(stores, event, logger),
  };
}
