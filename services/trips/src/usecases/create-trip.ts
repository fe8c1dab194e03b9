import type { TripInput } from '@wayfarer/contracts';
import type { OutboxRelay } from '@wayfarer/service-kit';
import type { WithIdempotency } from '@wayfarer/service-kit/mongo';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { newId, newTripDoc, tripPrefix, type PhotoDoc, type TripDoc } from '../domain/trip';
import { tripCreatedEntry } from '../events/outbox';
import type { TripsRepo } from '../store/trips';
import { photosToStore, processPhotos, storeUpload, type StorePhotosDeps } from './store-photos';

/** A photo of the form, written to the request's spool directory and typed by its content. */
export interface SpooledPhoto extends SpooledImage {
  /** Destination index (`photos[i]`). */
  index: number;
}

export interface CreateTripDeps extends StorePhotosDeps {
  trips: TripsRepo;
  relay?: Pick<OutboxRelay, 'kick'>;
  now: () => Date;
  /** Makes the display variants of a new trip's photos, after it is answered. */
  variants: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
}

/**
 * Creates a trip from validated input and sniffed, spooled photos, with no half-created trip:
 * 1. every photo goes through the image pipeline (`processPhotos`: a bad image is a 400,
 *    nothing stored);
 * 2. a pending upload is recorded (`pending_uploads`, `_id` the trip id, with a lease renewed
 *    while it works);
 * 3. the stripped originals are uploaded (streamed from their files);
 * 4. only then the trip document is inserted, with `trip.created` in its outbox and every photo
 *    in `pendingVariants` (one write);
 * 5. the pending record is removed, and the display variants are queued (`photo-variants`):
 *    the trip is answered without waiting for them.
 * If 3 or 4 fails, every object of this trip is removed again, then the record. If the process
 * dies anywhere in between, the record outlives its lease and the sweeper (`sweep-uploads`)
 * removes the objects, unless the trip exists (then only the record goes).
 *
 * `stamp` adds the request's idempotency record to the trip document (service-kit
 * `MongoIdempotency.run`): when another trip already holds the same key (a concurrent retry
 * inserted first), the insert is refused with a duplicate key error, and this trip's objects
 * are removed like after any failed insert.
 *
 * With `importId` (`POST /api/import`), the trip is inserted hidden (`TripsRepo.insertHidden`:
 * no list, read or event sees it, no display variant is made) until the import commits and
 * shows all its trips at once; the relay is not kicked and no variant queued here.
 */
export async function createTrip(
  deps: CreateTripDeps,
  ownerId: string,
  input: TripInput,
  files: SpooledPhoto[],
  stamp: (trip: TripDoc) => WithIdempotency = () => ({}),
  options: { importId?: string } = {},
): Promise<TripDoc> {
  // 1. decode everything first, one photo at a time, within the instance's bound
  const processed = await processPhotos(deps, files);

  const tripId = newId();
  const stored = photosToStore(deps, tripId, processed);
  const photos: PhotoDoc[][] = input.destinations.map(() => []);
  files.forEach((file, i) => photos[file.index]!.push(stored[i]!.photo));

  const now = deps.now();
  const trip = newTripDoc({
    id: tripId,
    ownerId,
    input,
    destinationIds: input.destinations.map(() => newId()),
    photos,
    now,
  });

  // 2.-4. the record, the photos, then the trip
  const { importId } = options;
  await storeUpload(
    deps,
    { _id: tripId, ownerId, startedAt: now },
    stored,
    () =>
      importId === undefined
        ? deps.trips.insert(trip, [tripCreatedEntry(trip, now)], stamp(trip))
        : deps.trips.insertHidden(trip, importId, [tripCreatedEntry(trip, now)]),
    () => abandonUpload(deps, tripId),
  );
  if (importId !== undefined) return trip;
  deps.relay?.kick();
  deps.variants.enqueue(trip);
  return trip;
}

/**
 * After a failed upload or insert: removes the trip's objects, then its pending record, unless
 * the trip exists after all (an insert that failed on the way back). When that cannot be told
 * (MongoDB unreachable) or the objects cannot be removed, the record stays for the sweeper.
 */
async function abandonUpload(deps: CreateTripDeps, tripId: string): Promise<void> {
  try {
    if ((await deps.trips.existingIds([tripId])).has(tripId)) return;
    await deps.photos.removePrefix(tripPrefix(tripId));
    await deps.pending.finish(tripId);
  } catch (err) {
    deps.logger.error({ err, tripId }, 'could not clean up a failed trip; the sweeper will');
  }
}

/** Removes every object of `trip`: all its keys live under its prefix (see `photoKeys`). */
export async function removeTripObjects(
  deps: Pick<CreateTripDeps, 'photos'>,
  trip: Pick<TripDoc, '_id'>,
): Promise<void> {
  await deps.photos.removePrefix(tripPrefix(trip._id));
}
