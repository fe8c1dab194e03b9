import { join } from 'node:path';
import type { Logger } from '@wayfarer/service-kit';
import { imageTypeOfExtension, type ImageQueue, type ObjectStore } from '@wayfarer/storage';
import { PHOTO_DISPLAY, renderVariant, variantType } from '@wayfarer/storage/pipeline';
import type { SpoolArea } from '@wayfarer/storage';
import { photoKeys, photoPosition, type StoredVariant, type TripDoc } from '../domain/trip';
import type { TripRead, TripsStore } from '../store/trips';

export interface PhotoVariantsDeps {
  trips: TripsStore;
  photos: ObjectStore;
  /** The instance's bound on image work: variants run at `later` priority. */
  images: ImageQueue;
  /** Scratch files of a job (the original read back, the variant written). */
  spool: SpoolArea;
  logger: Logger;
}

/** Most trips one `resume()` picks up (the janitor runs it again later). */
const RESUME_PER_RUN = 100;
/** How many times a made variant is recorded where its photo moved to before giving up. */
const RECORD_ATTEMPTS = 5;

/**
 * The display variants of photos, made after their trip was answered. A new trip's photos are
 * queued at once (`enqueue`); each job reads the stored (already stripped) original back from
 * the bucket, renders `PHOTO_DISPLAY` from it in the instance's ImageQueue, stores it and
 * records it in the trip document (taking the photo off `pendingVariants`). Until then the
 * photo URL serves the stripped original.
 *
 * Nothing is lost to a crash: what is still to be made is in the trip documents, and the
 * janitor calls `resume()` on start and periodically; a job that failed (bucket or MongoDB
 * down) is tried again then. A photo is never queued twice in one instance; two instances
 * making the same variant write the same object and only one records it.
 */
export function createPhotoVariants(deps: PhotoVariantsDeps) {
  const queued = new Set<string>();
  let stopped = false;
  const running = new Set<Promise<void>>();

  async function make(tripId: string, photoId: string): Promise<void> {
    const trip = await deps.trips.findLive(tripId);
    if (!trip || !trip.pendingVariants?.includes(photoId)) return;
    const position = photoPosition(trip, photoId);
    if (!position) return;
    const photo = trip.destinations[position.destination]!.photos[position.photo]!;
    const originalType = imageTypeOfExtension(photo.original.key.split('.').pop() ?? '');
    if (!originalType) throw new Error(`unknown type of ${photo.original.key}`);
    const displayType = variantType(originalType, PHOTO_DISPLAY);
    const displayKey = photoKeys(trip._id, photoId, originalType, displayType).display;
    await deps.spool.withRequestDir(async (dir) => {
      const source = join(dir, `original.${originalType.ext}`);
      if (!(await deps.photos.download(photo.original.key, source))) {
        throw new Error(`the original ${photo.original.key} is missing`);
      }
      const variant = await deps.images.run(() => {
        // stopping: what has not started yet is resumed by the next start
        if (stopped) throw new Error('stopped before the variant was made');
        return renderVariant(source, originalType, 'display', PHOTO_DISPLAY, join(dir, 'out'));
      }, 'later');
      await deps.photos.putFile(displayKey, variant.path, variant.type.contentType);
      await record(trip, photoId, displayKey, {
        key: displayKey,
        contentType: variant.type.contentType,
        bytes: variant.bytes,
        width: variant.width,
        height: variant.height,
      });
    });
  }

  /**
   * Records a made variant where the photo is now: a change may have moved it (destinations
   * reordered or removed, photos removed) since it was read, so a refused write reads the trip
   * again. A photo gone meanwhile (removed, or its trip deleted) had its objects removed: the
   * variant goes too.
   */
  async function record(
    read: TripRead,
    photoId: string,
    displayKey: string,
    display: StoredVariant,
  ): Promise<void> {
    let trip: TripRead | null = read;
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      const position = trip && photoPosition(trip, photoId);
      if (!trip || !position) {
        await deps.photos.remove(displayKey);
        return;
      }
      // recorded by another instance meanwhile
      if (!trip.pendingVariants?.includes(photoId)) return;
      if (await deps.trips.setDisplay(trip, position, photoId, display)) return;
      trip = await deps.trips.findLive(read._id);
    }
    // still moving: the janitor's next resume records it
  }

  function enqueuePhoto(tripId: string, photoId: string): void {
    const id = `${tripId}/${photoId}`;
    if (stopped || queued.has(id)) return;
    queued.add(id);
    const job = make(tripId, photoId)
      .catch((err: unknown) => {
        if (stopped) return;
        deps.logger.warn({ err, tripId, photoId }, 'display variant failed; retried later');
      })
      .finally(() => {
        queued.delete(id);
        running.delete(job);
      });
    running.add(job);
  }

  return {
    /** Queues the display variants `trip` still lacks. */
    enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void {
      for (const photoId of trip.pendingVariants ?? []) enqueuePhoto(trip._id, photoId);
    },
    /** Queues what the trip documents say is still to be made (the janitor's task). */
    async resume(): Promise<number> {
      const trips = await deps.trips.withPendingVariants(RESUME_PER_RUN);
      for (const trip of trips) this.enqueue(trip);
      return trips.length;
    },
    /** Resolves once every job queued so far has ended. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    /** Queues nothing more; resolves once the jobs running now ended (the rest resume later). */
    async stop(): Promise<void> {
      stopped = true;
      await this.idle();
    },
  };
}

export type PhotoVariants = ReturnType<typeof createPhotoVariants>;
