import {
  ExportArchive,
  ExportAreas,
  type ExportArea,
  type ExportedTrip,
  type ExportManifest,
} from '@wayfarer/contracts';
import type { PhotoDoc, TripDoc } from './trip';

/*
 * The account export's ZIP (`GET /api/export`): what goes where, from the user's
 * trips (contracts' `ExportArchive` is the layout; the import reads it back). Pure: the use
 * case streams the entries.
 */

/** The download's file name: `wayfarer-export-YYYY-MM-DD.zip` (UTC day of the export). */
export const exportFileName = (now: Date): string =>
  `wayfarer-export-${now.toISOString().slice(0, 10)}.zip`;

/** An entry's name in the ZIP: everything under `ExportArchive.root/`. */
export const archiveEntry = (path: string): string => `${ExportArchive.root}/${path}`;

/** The area's document's path (`<area>.json`). */
export const areaPath = (area: ExportArea): string => `${area}.json`;

/** A trip's file of one format: `trips/<tripId>/trip.<format>`. */
export const tripFilePath = (tripId: string, format: string): string =>
  `${ExportArchive.tripFilesDir}/${tripId}/trip.${format}`;

/** The extension of a stored original (`<trip>/<photo>/original.<ext>`); `bin` if it has none. */
function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : 'bin';
}

/** An original photo as the archive holds it: `photos/<tripId>/<photoId>.<ext>`. */
export interface ArchivedPhoto {
  /** Its path in the archive (under `root/`), as trips.json names it. */
  path: string;
  /** Its object in the photos bucket. */
  key: string;
  /** Its size as stored. */
  bytes: number;
}

export const photoPath = (tripId: string, photo: PhotoDoc): string =>
  `${ExportArchive.photosDir}/${tripId}/${photo.id}.${extensionOf(photo.original.key)}`;

/** The trips of trips.json and every original photo they name, in trip and destination order. */
export function archivedTrips(trips: readonly TripDoc[]): {
  trips: ExportedTrip[];
  photos: ArchivedPhoto[];
} {
  const photos: ArchivedPhoto[] = [];
  const exported = trips.map((trip): ExportedTrip => ({
    id: trip._id,
    name: trip.name,
    startDate: trip.startDate,
    endDate: trip.endDate,
    visibility: trip.visibility,
    destinations: trip.destinations.map((d) => ({
      id: d._id,
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate,
      endDate: d.endDate,
      story: d.story,
      photos: d.photos.map((photo) => {
        const path = photoPath(trip._id, photo);
        photos.push({ path, key: photo.original.key, bytes: photo.original.bytes });
        return path;
      }),
    })),
  }));
  return { trips: exported, photos };
}

/** The manifest: format, version, the export's time and the areas that could not be had. */
export function archiveManifest(now: Date, missing: ReadonlySet<ExportArea>): ExportManifest {
  return {
    format: ExportArchive.format,
    version: ExportArchive.version,
    exportedAt: now.toISOString(),
    missingAreas: ExportAreas.filter((area) => missing.has(area)),
  };
}
