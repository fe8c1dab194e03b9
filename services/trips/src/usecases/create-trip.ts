import type { TripInput } from '@wayfarer/contracts';
import {
  recordedAnswer,
  type IdempotencyClaim,
  type IdempotentOutcome,
  type OutboxRelay,
} from '@wayfarer/service-kit';
import type { SpooledImage } from '@wayfarer/storage/upload';
import {
  newId,
  newTripDoc,
  toApiTrip,
  tripPrefix,
  type PhotoDoc,
  type TripDoc,
} from '../domain/trip';
import { tripCreatedEntry } from '../events/outbox';
import type { TripsStore } from '../store/trips';
import { photosToStore, processPhotos, storeUpload, type StorePhotosDeps } from './store-photos';

/** A photo of the form, written to the request's spool directory and typed by its content. */
export interface SpooledPhoto extends SpooledImage {
  /** Destination index (`photos[i]`). */
  index: number;
}

export interface CreateTripDeps extends StorePhotosDeps {
  trips: TripsStore;
  relay?: Pick<OutboxRelay, 'kick'>;
  now: () => Date;
  /** Makes the display variants of a new trip's photos, after it is answered. */
  variants: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
}

/** `POST /api/trips` as read: the owner, the validated form, its photos and its key's claim. */
export interface CreateTripRequest {
  ownerId: string;
  input: TripInput;
  files: SpooledPhoto[];
  /** The `Idempotency-Key`'s claim (null without a key). */
  claim: IdempotencyClaim | null;
}

/**
 * `POST /api/trips`, once per `Idempotency-Key`: the create (`storeNewTrip`) around which
 * service-kit's `runUseCase` claims the key, whose record the trip's own insert writes (the
 * answer made from the trip inserted). A retry is answered the first answer and creates
 * nothing; the key with another form (fields or photo bytes) is a 422. A create that lost to
 * a same-key create in flight (the unique index refused its insert) removes its photos like
 * after any failed insert, and is answered the winner's answer.
 */
export function createTrip(
  deps: CreateTripDeps,
  request: CreateTripRequest,
): Promise<IdempotentOutcome<TripDoc>> {
  return deps.trips.idempotency.runUseCase(
    request.claim,
    (trip: TripDoc) => recordedAnswer(201, toApiTrip(trip)),
    () => storeNewTrip(deps, request.ownerId, request.input, request.files),
  );
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
 *
 * With `importId` (`POST /api/import`), the trip is inserted hidden (`HiddenTripsStore.insert`:
 * no list, read or event sees it, no display variant is made) until the import commits and
 * shows all its trips at once; the relay is not kicked and no variant queued here.
 */
export async function storeNewTrip(
  deps: CreateTripDeps,
  ownerId: string,
  input: TripInput,
  files: SpooledPhoto[],
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
        ? deps.trips.insert(trip, [tripCreatedEntry(trip, now)])
        : deps.trips.hidden.insert(trip, importId, [tripCreatedEntry(trip, now)]),
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
