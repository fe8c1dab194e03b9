import type { Logger } from '@wayfarer/service-kit';
import type { ImageQueue, ObjectStore } from '@wayfarer/storage';
import {
  ImageRejectedError,
  PHOTO_ORIGINAL,
  PHOTO_DISPLAY,
  processImage,
  variantType,
  type ImageFile,
} from '@wayfarer/storage/pipeline';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { InvalidTripError, UnavailableError } from '../domain/errors';
import { describeFile } from '../domain/form';
import { Messages } from '../domain/limits';
import { newPhotoId, photoKeys, type PhotoDoc } from '../domain/trip';
import type { PendingUploadDoc, PendingUploadsStore } from '../store/pending-uploads';

/*
 * Storing uploaded photos, the part a new trip and photos added to a saved one share: each
 * photo through the image pipeline before anything is written, a pending upload record with a
 * lease before the first object, the stripped originals uploaded while the lease is kept.
 * The display variants are made after the answer (`photo-variants`).
 */

/**
 * What is stored of each photo before the trip is answered: the original, re-encoded by
 * storage's image pipeline (upright, no metadata). The display variant is made from it later.
 */
const UPLOAD_VARIANTS = { original: PHOTO_ORIGINAL };

/** How many uploads to MinIO run at once for one request. */
const UPLOAD_CONCURRENCY = 4;

export interface StorePhotosDeps {
  /** Uploads in progress: recorded before the first object is written (see `UploadLease`). */
  pending: PendingUploadsStore;
  photos: ObjectStore;
  logger: Logger;
  /** How long an upload's record holds without renewal before the sweeper may take it. */
  uploadLeaseMs: number;
  /** The instance's bound on image work (`IMAGE_CONCURRENCY`). */
  images: ImageQueue;
}

/**
 * Every photo through the image pipeline, one at a time in the instance's ImageQueue (ahead of
 * variant jobs): decoded with a pixel limit, polyglots refused, re-encoded upright without
 * metadata into its original. A refused image is a 400 naming the file; nothing is stored.
 */
export async function processPhotos(
  deps: Pick<StorePhotosDeps, 'images'>,
  files: readonly SpooledImage[],
): Promise<ImageFile[]> {
  const processed: ImageFile[] = [];
  for (const file of files) {
    processed.push(await deps.images.run(() => processPhoto(file), 'now'));
  }
  return processed;
}

/** One photo through the image pipeline; a refused image is a 400 naming the file. */
async function processPhoto(file: SpooledImage): Promise<ImageFile> {
  try {
    return (await processImage(file.path, UPLOAD_VARIANTS, file.path)).variants.original;
  } catch (err) {
    if (err instanceof ImageRejectedError) {
      const message =
        err.reason === 'not_an_image' ? Messages.notAnImage : Messages.unreadableImage;
      throw new InvalidTripError(`${describeFile(file.field, file.filename)} ${message}`);
    }
    throw err;
  }
}

/** A processed photo of a trip: what the trip records of it, and its upload. */
export interface PhotoToStore {
  photo: PhotoDoc;
  upload: () => Promise<void>;
}

/** The record and the upload of each processed photo of `tripId` (new photo ids). */
export function photosToStore(
  deps: Pick<StorePhotosDeps, 'photos'>,
  tripId: string,
  processed: readonly ImageFile[],
): PhotoToStore[] {
  return processed.map((original) => {
    const id = newPhotoId();
    const keys = photoKeys(tripId, id, original.type, variantType(original.type, PHOTO_DISPLAY));
    return {
      photo: {
        id,
        original: {
          key: keys.original,
          contentType: original.type.contentType,
          bytes: original.bytes,
          width: original.width,
          height: original.height,
        },
        display: null,
      },
      upload: () => deps.photos.putFile(keys.original, original.path, original.type.contentType),
    };
  });
}

/**
 * Records the upload (`pending_uploads`, a lease), then uploads every photo (at most
 * `UPLOAD_CONCURRENCY` at once, renewing the lease as they go), then renews the lease once
 * more so that the write that follows (`commit`) happens well inside a fresh one: no sweeper
 * can be removing these objects meanwhile. MinIO failing is a 503. If the uploads or `commit`
 * fail, `abandon` runs (it removes the objects and the record, or leaves them to the sweeper).
 * Once `commit` is done the record is removed (one left behind is the sweeper's).
 */
export async function storeUpload<T>(
  deps: StorePhotosDeps,
  record: Omit<PendingUploadDoc, 'expiresAt'>,
  photos: readonly PhotoToStore[],
  commit: () => Promise<T>,
  abandon: () => Promise<void>,
): Promise<T> {
  const lease = new UploadLease(deps, record._id);
  await deps.pending.start({ ...record, expiresAt: lease.next() });
  let made: T;
  try {
    try {
      await runLimited(
        photos.map(
          ({ upload }) =>
            () =>
              lease.keep().then(upload),
        ),
        UPLOAD_CONCURRENCY,
      );
    } catch (err) {
      deps.logger.error({ err, upload: record._id }, 'could not store uploaded photos');
      if (err instanceof UnavailableError) throw err;
      throw new UnavailableError('Photo storage is unavailable; please try again later.');
    }
    await lease.keep({ force: true });
    made = await commit();
  } catch (err) {
    await abandon();
    throw err;
  }
  await deps.pending.finish(record._id).catch((err: unknown) => {
    deps.logger.warn({ err, upload: record._id }, 'could not remove the record of an upload');
  });
  return made;
}

/**
 * The lease of one upload's pending record. `keep()` renews it when a third of it has passed
 * (concurrent callers share one renewal) and fails once the record is gone.
 */
class UploadLease {
  private renewedAt = Date.now();
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly deps: Pick<StorePhotosDeps, 'pending' | 'uploadLeaseMs'>,
    private readonly recordId: string,
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
        const renewed = await this.deps.pending.renew(
          this.recordId,
          new Date(at + this.deps.uploadLeaseMs),
        );
        // the sweeper took the record (no renewal in time): it removes the objects
        if (!renewed) throw new UnavailableError(Messages.uploadExpired);
        this.renewedAt = at;
      } finally {
        this.renewing = null;
      }
    })();
    await this.renewing;
  }
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
