import type { Readable } from 'node:stream';
import { ExportArchive, ExportAreas, TripExportFormats } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import {
  archivedTrips,
  archiveEntry,
  archiveManifest,
  areaPath,
  exportFileName,
  tripFilePath,
} from '../domain/archive';
import { exportTripFile } from '../domain/export';
import type { ExportAreasClient } from '../store/export-areas';
import type { TripsStore } from '../store/trips';
import { ZipDownload } from './zip-download';

export interface ExportArchiveDeps {
  trips: Pick<TripsStore, 'listByOwner'>;
  photos: Pick<ObjectStore, 'readLarge'>;
  areas: Pick<ExportAreasClient, 'fetchAll'>;
  logger: Logger;
  now: () => Date;
}

export interface ExportDownload {
  /** `wayfarer-export-YYYY-MM-DD.zip`. */
  fileName: string;
  /** The ZIP, written as it is read: one photo at a time, pulled as the client takes it. */
  stream: Readable;
}

/**
 * The account export (`GET /api/export`): one ZIP of everything of the user's
 * (contracts' `ExportArchive` layout). The small parts are made first: the trips (MongoDB), the
 * other services' areas (asked at once; one that fails is listed in the manifest's
 * `missingAreas`), each trip's files (`exportTripFile`); the JSON is deflated. Then the original
 * photos are streamed from MinIO one after another, STORED (JPEG, PNG, WebP are compressed
 * already: deflating them costs CPU for nothing), by `ZipDownload` (`zip-download.ts`, the
 * records in `domain/zip.ts`): each photo read with storage's `readLarge` (a megabyte a read,
 * into buffers used again) and written into the response as it is read, at the client's pace,
 * the next photo's read opened while one is written; a photo is never held whole, nor the
 * archive. ZIP64 records once sizes, offsets or the count pass 32 bits.
 *
 * When the stream is closed before its end (the client left) the photo being read is closed
 * (its MinIO connection with it) and nothing more is opened; a MinIO failure midway destroys
 * the download (the client sees a broken transfer, not a short valid ZIP) and is logged once.
 */
export async function exportArchive(
  deps: ExportArchiveDeps,
  identity: { userId: string; clientIp: string },
  signal?: AbortSignal,
): Promise<ExportDownload> {
  const now = deps.now();
  const [trips, areas] = await Promise.all([
    deps.trips.listByOwner(identity.userId),
    deps.areas.fetchAll(identity, signal),
  ]);
  const files: { name: string; data: Buffer }[] = [];
  const json = (path: string, value: unknown) =>
    files.push({ name: archiveEntry(path), data: Buffer.from(JSON.stringify(value, null, 2)) });
  const missing = new Set(ExportAreas.filter((area) => !areas[area]));
  json(ExportArchive.manifest, archiveManifest(now, missing));
  const archived = archivedTrips(trips);
  json(ExportArchive.trips, archived.trips);
  for (const area of ExportAreas) {
    const doc = areas[area];
    if (doc) json(areaPath(area), doc);
  }
  for (const trip of trips) {
    for (const format of TripExportFormats) {
      const file = exportTripFile(trip, format, { now });
      files.push({
        name: archiveEntry(tripFilePath(trip._id, format)),
        data: Buffer.from(file.body),
      });
    }
  }

  const { photos } = archived;
  const download = new ZipDownload(
    {
      files,
      streamed: photos.map((photo) => ({ name: archiveEntry(photo.path) })),
      open: async (i) => {
        const pieces = await deps.photos.readLarge(photos[i]!.key);
        if (!pieces) {
          // removed since the trip was read (a photo deleted meanwhile): an empty entry
          deps.logger.warn({ key: photos[i]!.key }, 'a photo of the account export is gone');
        }
        return pieces;
      },
      mtime: now,
    },
    (err, name) => {
      const key = photos.find((photo) => archiveEntry(photo.path) === name)?.key;
      deps.logger.error({ err, key }, 'the account export failed midway');
    },
  );
  download.once('close', () => {
    if (!download.complete && !download.errored) {
      deps.logger.info({ userId: identity.userId }, 'the account export stopped: the client left');
    }
  });
  return { fileName: exportFileName(now), stream: download };
}
