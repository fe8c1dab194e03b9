import { recordedAnswer, type IdempotencyClaim } from '@wayfarer/service-kit';
import type { SpooledImage } from '@wayfarer/storage/upload';
import {
  addPhotos,
  checkVersion,
  destinationOf,
  photoLimitProblem,
  removePhoto,
  type ExpectedVersion,
} from '../domain/edit';
import { InvalidTripError } from '../domain/errors';
import { newId, photoPrefix, type TripDoc } from '../domain/trip';
import { changeTrip, type ChangeTripDeps, type Changed } from './change-trip';
import { readOwned } from './read-trip';
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
}

/** A photo add as requested: with its `Idempotency-Key`'s claim (null without a key). */
export interface PhotoAddRequest extends PhotoAdd {
  claim: IdempotencyClaim | null;
}

/**
 * `POST /api/trips/{id}/destinations/{d}/photos`, once per `Idempotency-Key`: the add
 * (`addTripPhotos`) around which service-kit's `runUseCase` claims the key, whose record the
 * change's own update writes (the trip's `photoAdd`, its latest keyed add's). A retry of an
 * add that was made adds nothing and is answered with the trip as it is now (`replayed`); the
 * key with another form is a 422. A keyed add that found the trip at another version may have
 * lost to a same-key add in flight: the winner's answer, else the 412.
 */
export async function addTripPhotosOnce(
  deps: TripPhotosDeps,
  add: PhotoAddRequest,
): Promise<{ trip: TripDoc; replayed: boolean }> {
  const answer = recordedAnswer(201, { _id: add.tripId, destinationId: add.destinationId });
  const outcome = await deps.trips.photoAdds.runUseCase(
    add.claim,
    () => answer,
    () => addTripPhotos(deps, add),
  );
  if (!outcome.replayed) return { trip: outcome.value.trip, replayed: false };
  return { trip: await readOwned(deps, add.ownerId, add.tripId), replayed: true };
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
      changeTrip(deps, add.ownerId, add.tripId, add.expected, (current) =>
        addPhotos(
          current,
          add.destinationId,
          stored.map((s) => s.photo),
        ),
      ),
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
