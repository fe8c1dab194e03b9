import type { TripInput } from '@wayfarer/contracts';
import { HttpError, type Logger, type OutboxRelay } from '@wayfarer/service-kit';
import type { WithIdempotency } from '@wayfarer/service-kit/mongo';
import type { ImageQueue, ObjectStore } from '@wayfarer/storage';
import {
  ImageRejectedError,
  PHOTO_DISPLAY,
  PHOTO_ORIGINAL,
  processImage,
  variantType,
  type ImageFile,
} from '@wayfarer/storage/pipeline';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { describeFile } from '../domain/form';
import { Messages } from '../domain/limits';
import {
  newId,
  newPhotoId,
  newTripDoc,
  photoKeys,
  tripPrefix,
  type PhotoDoc,
  type TripDoc,
} from '../domain/trip';
import { tripCreatedEntry } from '../events/outbox';
import type { PendingUploadsRepo } from '../store/pending-uploads';
import type { TripsRepo } from '../store/trips';

/** A photo of the form, written to the request's spool directory and typed by its content. */
export interface SpooledPhoto extends SpooledImage {
  /** Destination index (`photos[i]`). */
  index: number;
}

/**
 * What is stored of each photo before the trip is answered: the original, re-encoded by
 * storage's image pipeline (upright, no metadata). The display variant is made from it later
 * (`photo-variants`).
 */
const UPLOAD_VARIANTS = { original: PHOTO_ORIGINAL };

export interface CreateTripDeps {
  trips: TripsRepo;
  /** Uploads in progress: recorded before the first object is written (see `UploadLease`). */
  pending: PendingUploadsRepo;
  photos: ObjectStore;
  relay?: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  now: () => Date;
  /** How long an upload's record holds without renewal before the sweeper may take it. */
  uploadLeaseMs: number;
  /** The instance's bound on image work (`IMAGE_CONCURRENCY`). */
  images: ImageQueue;
  /** Makes the display variants of a new trip's photos, after it is answered. */
  variants: { enqueue(trip: TripDoc): void };
}

/** How many uploads to MinIO run at once for one trip. */
const UPLOAD_CONCURRENCY = 4;

/**
 * Creates a trip from validated input and sniffed, spooled photos, with no half-created trip:
 * 1. every photo goes through the image pipeline (one at a time, in the instance's ImageQueue
 *    ahead of variant jobs): decoded with a pixel limit, polyglots refused, re-encoded upright
 *    without metadata into its original (a bad image is a 400, nothing stored);
 * 2. a pending upload is recorded (`pending_uploads`, with a lease renewed while it works);
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
 */
export async function createTrip(
  deps: CreateTripDeps,
  ownerId: string,
  input: TripInput,
  files: SpooledPhoto[],
  stamp: (trip: TripDoc) => WithIdempotency = () => ({}),
): Promise<TripDoc> {
  // 1. decode everything first, one photo at a time, within the instance's bound
  const processed: ImageFile[] = [];
  for (const file of files) {
    processed.push(await deps.images.run(() => processPhoto(file), 'now'));
  }

  const tripId = newId();
  const photos: PhotoDoc[][] = input.destinations.map(() => []);
  const uploads: (() => Promise<void>)[] = [];
  files.forEach((file, i) => {
    const original = processed[i]!;
    const id = newPhotoId();
    const keys = photoKeys(tripId, id, original.type, variantType(original.type, PHOTO_DISPLAY));
    const stored = (key: string, image: ImageFile) => ({
      key,
      contentType: image.type.contentType,
      bytes: image.bytes,
      width: image.width,
      height: image.height,
    });
    photos[file.index]!.push({
      id,
      original: stored(keys.original, original),
      display: null,
    });
    uploads.push(() =>
      deps.photos.putFile(keys.original, original.path, original.type.contentType),
    );
  });

  const now = deps.now();
  const made = newTripDoc({
    id: tripId,
    ownerId,
    input,
    destinationIds: input.destinations.map(() => newId()),
    photos,
    now,
  });
  made.outbox = [tripCreatedEntry(made, now)];
  const trip: TripDoc = { ...made, ...stamp(made) };

  // 2. nothing is written before the upload is recorded
  const lease = new UploadLease(deps, tripId);
  await deps.pending.start({ _id: tripId, ownerId, startedAt: now, expiresAt: lease.next() });
  try {
    // 3. store the photos (renewing the lease as they go), 4. then the trip
    try {
      await runLimited(
        uploads.map((upload) => () => lease.keep().then(upload)),
        UPLOAD_CONCURRENCY,
      );
    } catch (err) {
      deps.logger.error({ err, tripId }, 'could not store the photos of a new trip');
      if (err instanceof HttpError) throw err;
      throw new HttpError(503, 'Photo storage is unavailable; please try again later.');
    }
    // the insert happens well inside a fresh lease: no sweeper can be removing these objects
    await lease.keep({ force: true });
    await deps.trips.insert(trip);
  } catch (err) {
    await abandonUpload(deps, tripId);
    throw err;
  }
  // 5. the trip exists: a record left here (e.g. MongoDB down now) is removed by the sweeper
  await deps.pending.finish(tripId).catch((err: unknown) => {
    deps.logger.warn({ err, tripId }, 'could not remove the pending record of a new trip');
  });
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

/**
 * The lease of one upload's pending record. `keep()` renews it when a third of it has passed
 * (concurrent callers share one renewal) and fails once the record is gone.
 */
class UploadLease {
  private renewedAt = Date.now();
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly deps: Pick<CreateTripDeps, 'pending' | 'uploadLeaseMs'>,
    private readonly tripId: string,
  ) {}

  /** The expiry of a lease taken now. */
  next(): Date {
    return new Date(Date.now() + this.deps.uploadLeaseMs);
  }

  async keep(options: { force?: boolean } = {}): Promise<void> {
    const due = Date.now() - this.renewedAt >= this.deps.uploadLeaseMs / 3;
    if (!options.force && !due) return;
    this.renewing ??= (async () => {
      const at = Date.now();
      try {
        if (!(await this.deps.pending.renew(this.tripId, new Date(at + this.deps.uploadLeaseMs)))) {
          // the sweeper took the record (no renewal in time): it removes the objects
          throw new HttpError(503, Messages.uploadExpired);
        }
        this.renewedAt = at;
      } finally {
        this.renewing = null;
      }
    })();
    await this.renewing;
  }
}

/** One photo through the image pipeline; a refused image is a 400 naming the file. */
async function processPhoto(file: SpooledPhoto): Promise<ImageFile> {
  try {
    return (await processImage(file.path, UPLOAD_VARIANTS, file.path)).variants.original;
  } catch (err) {
    if (err instanceof ImageRejectedError) {
      const message =
        err.reason === 'not_an_image' ? Messages.notAnImage : Messages.unreadableImage;
      throw new HttpError(400, `${describeFile(file.field, file.filename)} ${message}`);
    }
    throw err;
  }
}

/** Removes every object of `trip`: all its keys live under its prefix (see `photoKeys`). */
export async function removeTripObjects(
  deps: Pick<CreateTripDeps, 'photos'>,
  trip: TripDoc,
): Promise<void> {
  await deps.photos.removePrefix(tripPrefix(trip._id));
}

/** Runs `tasks` with at most `limit` in flight; rejects with the first failure once all settled. */
async function runLimited(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < tasks.length && failure === null) {
      const task = tasks[next++]!;
      try {
        await task();
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure !== null) throw failure;
}
