import { notFound, type Logger, type OutboxRelay } from '@wayfarer/service-kit';
import { Messages } from '../domain/limits';
import { isTripId, type TripDoc } from '../domain/trip';
import { tripDeletedEntry } from '../events/outbox';
import type { PhotoStore } from '../store/photos';
import type { TripsRepo } from '../store/trips';
import { removeTripObjects } from './create-trip';
import type { KeyedLock } from './keyed-lock';

/** How long a delete waits for the relay to finish with the trip's pending events. */
const RELAY_WAIT_MS = 3000;

/** Waits for `promise` to settle, at most `ms`; never rejects. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

export interface DeleteTripDeps {
  trips: TripsRepo;
  photos: PhotoStore;
  relay?: Pick<OutboxRelay, 'kick' | 'flush'>;
  logger: Logger;
  now: () => Date;
  /** Serializes deletes of one trip in this process. */
  deleteLock: KeyedLock;
}

/**
 * Deletes the caller's trip: soft-delete and `trip.deleted` in one single-document update (the
 * relay publishes it, then removes the document), then its photos (every variant) from MinIO.
 * Another user's trip, an unknown or malformed id: 404, nothing changes. If MinIO fails after
 * the trip is deleted the answer is still the deleted trip; the leftover objects are logged.
 *
 * FerretDB v1 loses one of two concurrent updates of a document (last write wins). Two writers
 * could meet here: a second delete of the same trip (so deletes of one trip run one at a time,
 * and the second finds it deleted: 404), and the outbox relay clearing the trip's still-pending
 * `trip.created` (its `$pullAll` would overwrite the soft-delete, bringing the trip back). So a
 * trip with pending events first lets this process's relay finish with them; once its outbox
 * is empty the relay does not write the document again until the soft-delete has queued
 * `trip.deleted`. (Across several replicas a small window remains: see README.)
 */
export async function deleteTrip(
  deps: DeleteTripDeps,
  ownerId: string,
  tripId: string,
): Promise<TripDoc> {
  if (!isTripId(tripId)) throw notFound(Messages.tripNotFound);
  const trip = await deps.deleteLock.run(tripId, async () => {
    let found = await deps.trips.findOwnedWithOutbox(tripId, ownerId);
    if (found?.outbox?.length && deps.relay) {
      // Bounded: with Kafka down the relay cannot publish, so it does not write the document
      // either, and there is nothing to wait for.
      await settleWithin(deps.relay.flush(), RELAY_WAIT_MS);
      found = await deps.trips.findOwnedWithOutbox(tripId, ownerId);
    }
    if (!found) throw notFound(Messages.tripNotFound);
    const now = deps.now();
    if (!(await deps.trips.softDelete(tripId, ownerId, now, tripDeletedEntry(found, now)))) {
      throw notFound(Messages.tripNotFound);
    }
    return found;
  });
  deps.relay?.kick();
  try {
    await removeTripObjects(deps, trip);
  } catch (err) {
    deps.logger.error({ err, tripId }, 'trip deleted but its photos could not all be removed');
  }
  return trip;
}
