import type { SpooledImage } from '@wayfarer/storage/upload';
import {
  addPhotos,
  checkVersion,
  destinationOf,
  photoLimitProblem,
  removePhoto,
  type ExpectedVersion,
} from '../domain/edit';
import { InvalidTripError, StaleTripError } from '../domain/errors';
import { newId, photoPrefix, type TripDoc } from '../domain/trip';
import type { ChangeOptions } from '../store/trips';
import { changeTrip, readOwned, type ChangeTripDeps, type Changed } from './change-trip';
import { photosToStore, processPhotos, storeUpload, type StorePhotosDeps } from './store-photos';

export interface TripPhotosDeps extends ChangeTripDeps, StorePhotosDeps {
  /** Makes the display variants of added photos, after the answer. */
  variants: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
}

/** A photo add: the destination, the version it is made to, and its spooled files. */
export interface PhotoAdd {
  ownerId: string;
  tripId: string;
  destinationId: string;
  expected: ExpectedVersion;
  files: readonly SpooledImage[];
  /** A keyed add's record and filter (service-kit `MongoIdempotency`'s stamp, notHoldingKey). */
  write?: Omit<ChangeOptions, 'events'>;
}

/**
 * A keyed add that found the trip at another version: perhaps a same-key add (a retry sent
 * while this one was in flight) won. Marked as the unique index marks a duplicate key, so
 * service-kit's `MongoIdempotency.run` answers the winner's answer when there is one, and this
 * (a StaleTripError: 412) when there is none.
 */
class KeyRaceError extends StaleTripError {
  readonly code = 11000;

  constructor(stale: StaleTripError) {
    super(stale.current);
  }
}

/**
 * Checks that photos may be added before their bytes are read (the trip is the owner's, the
 * destination its, the version the one the client saw): NotFoundError, StaleTripError.
 */
export async function checkPhotoAdd(
  deps: Pick<ChangeTripDeps, 'trips'>,
  add: Pick<PhotoAdd, 'ownerId' | 'tripId' | 'destinationId' | 'expected'>,
): Promise<TripDoc> {
  const trip = await readOwned(deps, add.ownerId, add.tripId);
  checkVersion(trip, add.expected);
  destinationOf(trip, add.destinationId);
  return trip;
}

/**
 * Adds photos to a destination of a saved trip, as creation stores them and with nothing half
 * added: the limits checked on the trip as it is (per destination, per trip: InvalidTripError),
 * every photo through the image pipeline (a bad image: 400, nothing stored), a pending upload
 * recorded (its own id, the trip and the photo ids: the sweeper removes what a crash leaves),
 * the stripped originals uploaded, then the change written over the version the client named
 * (`changeTrip`: one `trip.updated`). If that write fails (a change won meanwhile: 412; the
 * trip deleted: 404) the uploaded objects are removed again. The display variants are made
 * after the answer.
 */
export async function addTripPhotos(deps: TripPhotosDeps, add: PhotoAdd): Promise<Changed> {
  const trip = await checkPhotoAdd(deps, add);
  const problem = photoLimitProblem(trip, add.destinationId, add.files.length);
  if (problem) throw new InvalidTripError(problem);
  const processed = await processPhotos(deps, add.files);
  const stored = photosToStore(deps, add.tripId, processed);
  const photoIds = stored.map((s) => s.photo.id);
  const uploadId = newId();
  const changed = await storeUpload(
    deps,
    { _id: uploadId, ownerId: add.ownerId, startedAt: deps.now(), tripId: add.tripId, photoIds },
    stored,
    () =>
      changeTrip(
        deps,
        add.ownerId,
        add.tripId,
        add.expected,
        (current) =>
          addPhotos(
            current,
            add.destinationId,
            stored.map((s) => s.photo),
          ),
        add.write,
      ).catch((err: unknown) => {
        throw add.write?.filter && err instanceof StaleTripError ? new KeyRaceError(err) : err;
      }),
    () => abandonPhotos(deps, add.tripId, uploadId, photoIds),
  );
  deps.variants.enqueue(changed.trip);
  return changed;
}

/**
 * After a failed upload or write: removes the objects of the photos the trip does not hold
 * (a write that failed on the way back may have added them), then the upload's record. When
 * that cannot be done the record stays for the sweeper.
 */
async function abandonPhotos(
  deps: TripPhotosDeps,
  tripId: string,
  uploadId: string,
  photoIds: readonly string[],
): Promise<void> {
  try {
    const trip = await deps.trips.findLive(tripId);
    const held = new Set(trip?.destinations.flatMap((d) => d.photos.map((p) => p.id)) ?? []);
    for (const photoId of photoIds) {
      if (!held.has(photoId)) await deps.photos.removePrefix(photoPrefix(tripId, photoId));
    }
    await deps.pending.finish(uploadId);
  } catch (err) {
    deps.logger.error({ err, tripId }, 'could not clean up failed photo adds; the sweeper will');
  }
}

/**
 * Removes one photo of a destination (`removePhoto`: NotFoundError for a destination or photo
 * the trip does not have), over the version the client named; its objects leave the bucket.
 */
export function removeTripPhoto(
  deps: ChangeTripDeps,
  remove: {
    ownerId: string;
    tripId: string;
    destinationId: string;
    photoId: string;
    expected: ExpectedVersion;
  },
): Promise<Changed> {
  return changeTrip(deps, remove.ownerId, remove.tripId, remove.expected, (trip) =>
    removePhoto(trip, remove.destinationId, remove.photoId),
  );
}
