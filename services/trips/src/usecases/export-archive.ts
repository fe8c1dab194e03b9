import { Readable } from 'node:stream';
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
  type ArchivedPhoto,
} from '../domain/archive';
import { exportTripFile } from '../domain/export';
import type { ExportAreasClient } from '../store/export-areas';
import type { TripsRepo } from '../store/trips';
import { ZipFile } from './zip-writer';

export interface ExportArchiveDeps {
  trips: Pick<TripsRepo, 'listByOwner'>;
  photos: Pick<ObjectStore, 'get'>;
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
 * The account export (issue 22, `GET /api/export`): one ZIP of everything of the user's
 * (contracts' `ExportArchive` layout). The small parts are made first: the trips (MongoDB), the
 * other services' areas (asked at once; one that fails is listed in the manifest's
 * `missingAreas`), each trip's files (`exportTripFile`); the JSON is deflated. Then the original
 * photos are streamed from MinIO one after another, STORED (JPEG, PNG, WebP are compressed
 * already: deflating them costs CPU for nothing): yazl opens an object only when the previous
 * one is written (`addReadStreamLazy`) and its pipes wait for the client (backpressure), so a
 * photo is never held whole, nor the archive. yazl switches to ZIP64 by itself once sizes or
 * offsets pass 4 GB.
 *
 * When the stream is closed before its end (the client left) the photo being read is destroyed
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
  const zip = new ZipFile();
  const json = (path: string, value: unknown) =>
    zip.addBuffer(Buffer.from(JSON.stringify(value, null, 2)), archiveEntry(path), {
      mtime: now,
    });
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
      zip.addBuffer(Buffer.from(file.body), archiveEntry(tripFilePath(trip._id, format)), {
        mtime: now,
      });
    }
  }

  const output = zip.outputStream as Readable;
  let current: Readable | null = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    current?.destroy();
    current = null;
  };
  const fail = (err: unknown, photo?: ArchivedPhoto) => {
    if (stopped) return;
    deps.logger.error({ err, key: photo?.key }, 'the account export failed midway');
    stop();
    output.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  const open = (photo: ArchivedPhoto, done: (err: null, stream: Readable) => void) => {
    if (stopped) return; // the download is gone: the ZIP stays unfinished, then collected
    deps.photos.get(photo.key).then(
      (stream) => {
        if (stopped) {
          stream?.destroy();
          return;
        }
        if (!stream) {
          // removed since the trip was read (a photo deleted meanwhile): an empty entry
          deps.logger.warn({ key: photo.key }, 'a photo of the account export is gone');
        }
        const source = stream ?? Readable.from([]);
        // yazl pipes the stream but does not listen for its errors
        source.once('error', (err) => fail(err, photo));
        current = source;
        done(null, source);
      },
      (err: unknown) => fail(err, photo),
    );
  };
  for (const photo of archived.photos) {
    zip.addReadStreamLazy(archiveEntry(photo.path), { mtime: now, compress: false }, (done) =>
      open(photo, done),
    );
  }
  zip.on('error', (err: unknown) => fail(err));
  let ended = false;
  output.once('end', () => (ended = true));
  output.once('close', () => {
    if (!ended && !stopped) {
      deps.logger.info({ userId: identity.userId }, 'the account export stopped: the client left');
    }
    stop();
  });
  zip.end();
  return { fileName: exportFileName(now), stream: output };
}
