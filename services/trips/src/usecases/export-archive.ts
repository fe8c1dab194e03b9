import { PassThrough, pipeline, Readable } from 'node:stream';
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

/** How far the export reads a photo ahead of the client (bounded memory per download). */
export const EXPORT_READAHEAD_BYTES = 1024 * 1024;

export interface ExportArchiveDeps {
  trips: Pick<TripsRepo, 'listByOwner'>;
  photos: Pick<ObjectStore, 'getLarge'>;
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
  const { photos } = archived;
  let current: Readable | null = null;
  let stopped = false;
  // each photo's GET goes out while the one before is streamed (its first bytes are there when
  // its turn comes); at most one ahead
  const requested = new Map<number, Promise<Readable | null>>();
  const request = (i: number): Promise<Readable | null> | undefined => {
    if (i >= photos.length) return undefined;
    let pending = requested.get(i);
    if (!pending) {
      pending = deps.photos.getLarge(photos[i]!.key, EXPORT_READAHEAD_BYTES);
      // answered when its turn comes (`open`); a read that fails before then (MinIO gone) is
      // seen there too (the stream is destroyed with its error), not thrown meanwhile
      pending.then(
        (stream) => stream?.on('error', () => undefined),
        () => undefined,
      );
      requested.set(i, pending);
    }
    return pending;
  };
  const stop = () => {
    stopped = true;
    current?.destroy();
    current = null;
    for (const pending of requested.values()) {
      pending.then(
        (stream) => stream?.destroy(),
        () => undefined,
      );
    }
    requested.clear();
  };
  const fail = (err: unknown, photo?: ArchivedPhoto) => {
    if (stopped) return;
    deps.logger.error({ err, key: photo?.key }, 'the account export failed midway');
    stop();
    output.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  const open = (i: number, done: (err: null, stream: Readable) => void) => {
    if (stopped) return; // the download is gone: the ZIP stays unfinished, then collected
    const photo = photos[i]!;
    const pending = request(i)!;
    requested.delete(i);
    void request(i + 1);
    pending.then(
      (stream) => {
        if (stopped) {
          stream?.destroy();
          return;
        }
        if (!stream) {
          // removed since the trip was read (a photo deleted meanwhile): an empty entry
          deps.logger.warn({ key: photo.key }, 'a photo of the account export is gone');
        }
        // read ahead of the client by at most EXPORT_READAHEAD_BYTES: MinIO keeps sending in
        // long runs while the client drains (yazl pipes the stream but does not listen for its
        // errors: the pipeline does)
        const buffered = new PassThrough({ highWaterMark: EXPORT_READAHEAD_BYTES });
        pipeline(stream ?? Readable.from([]), buffered, (err) => {
          if (err) fail(err, photo);
        });
        current = buffered;
        done(null, buffered);
      },
      (err: unknown) => fail(err, photo),
    );
  };
  photos.forEach((photo, i) => {
    zip.addReadStreamLazy(archiveEntry(photo.path), { mtime: now, compress: false }, (done) =>
      open(i, done),
    );
  });
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
