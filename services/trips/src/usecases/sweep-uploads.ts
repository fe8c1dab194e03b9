import type { Logger } from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { photoPrefix, tripIdOfPrefix, tripIdTime, tripPrefix } from '../domain/trip';
import type { PendingUploadDoc, PendingUploadsStore } from '../store/pending-uploads';
import type { TripsStore } from '../store/trips';

export interface SweepUploadsDeps {
  trips: TripsStore;
  pending: PendingUploadsStore;
  photos: ObjectStore;
  logger: Logger;
  /** An upload's lease (`UPLOAD_LEASE_MS`): what is younger is never touched. */
  uploadLeaseMs: number;
}

/** Most expired pending records one run handles. */
const PENDING_PER_RUN = 100;
/** Most top-level prefixes of the bucket one run looks at (the next run goes on from there). */
const PREFIXES_PER_RUN = 500;

export interface UploadSweep {
  /** Pending records removed (with their objects when the trip did not exist). */
  pending: number;
  /** Prefixes with no trip and no pending record whose objects were removed. */
  orphans: number;
  objects: number;
}

/**
 * What a crash during uploads leaves in the photos bucket, removed (the service runs it on start
 * and periodically; each run is bounded):
 *
 * 1. pending uploads whose lease ran out: a new trip's, when the trip exists, only the record
 *    goes (the process died between the insert and the record's removal); otherwise the
 *    sweeper takes the record (only if the upload did not renew it meanwhile, so a slow upload
 *    that is alive keeps its objects: it renews long before its lease runs out) and removes the
 *    objects; photos added to a saved trip: the record is taken the same way, and the objects
 *    of its photos the trip does not hold are removed (those it holds were added);
 * 2. top-level prefixes of the bucket with no trip document (live or soft-deleted) and no pending
 *    record, made longer than a lease ago: uploads cut before pending records existed, a sweep
 *    or a delete that died half way. A few hundred prefixes per run, going round the bucket.
 */
export function createUploadSweeper(deps: SweepUploadsDeps) {
  let cursor = '';

  /** Photos added to a saved trip: the objects of those the trip does not hold go. */
  async function sweepAdded(record: PendingUploadDoc & { tripId: string }): Promise<number> {
    const trip = await deps.trips.findLive(record.tripId);
    const held = new Set(trip?.destinations.flatMap((d) => d.photos.map((p) => p.id)) ?? []);
    let removed = 0;
    for (const photoId of record.photoIds ?? []) {
      if (!held.has(photoId)) {
        removed += await deps.photos.removePrefix(photoPrefix(record.tripId, photoId));
      }
    }
    return removed;
  }

  async function sweepPending(now: Date, result: UploadSweep): Promise<void> {
    const expired = await deps.pending.expired(now, PENDING_PER_RUN);
    const trips = await deps.trips.existingIds(expired.map((record) => record._id));
    for (const record of expired) {
      if (record.tripId !== undefined) {
        if (!(await deps.pending.claimExpired(record))) continue;
        result.pending++;
        result.objects += await sweepAdded({ ...record, tripId: record.tripId });
        continue;
      }
      if (trips.has(record._id)) {
        await deps.pending.finish(record._id);
        result.pending++;
        continue;
      }
      if (!(await deps.pending.claimExpired(record))) continue;
      result.pending++;
      // if this fails, the prefix has no trip and no record any more: step 2 takes it later
      result.objects += await deps.photos.removePrefix(tripPrefix(record._id));
    }
  }

  async function sweepOrphans(now: Date, result: UploadSweep): Promise<void> {
    const prefixes = await deps.photos.listPrefixes({
      startAfter: cursor || undefined,
      max: PREFIXES_PER_RUN,
    });
    cursor = prefixes.length < PREFIXES_PER_RUN ? '' : prefixes.at(-1)!;
    const old = prefixes
      .map(tripIdOfPrefix)
      .filter((id): id is string => id !== null)
      .filter((id) => now.getTime() - tripIdTime(id).getTime() > deps.uploadLeaseMs);
    if (old.length === 0) return;
    const [trips, pending] = await Promise.all([
      deps.trips.existingIds(old),
      deps.pending.existing(old),
    ]);
    for (const id of old) {
      if (trips.has(id) || pending.has(id)) continue;
      result.orphans++;
      result.objects += await deps.photos.removePrefix(tripPrefix(id));
    }
  }

  return {
    /** One bounded pass of both sweeps. */
    async run(now: Date = new Date()): Promise<UploadSweep> {
      const result: UploadSweep = { pending: 0, orphans: 0, objects: 0 };
      await sweepPending(now, result);
      await sweepOrphans(now, result);
      if (result.pending + result.orphans > 0) {
        deps.logger.info(result, 'removed what interrupted uploads left');
      }
      return result;
    },
  };
}

export type UploadSweeper = ReturnType<typeof createUploadSweeper>;
