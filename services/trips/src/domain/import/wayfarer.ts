import { z } from 'zod';
import { ExportArchive, ExportedTrip, ExportManifest } from '@wayfarer/contracts';
import type { DraftTrip, PhotoRef } from './draft';

/** The entries of a Wayfarer export (`GET /api/export`) the import reads. */
export const WayfarerEntries = {
  manifest: `${ExportArchive.root}/${ExportArchive.manifest}`,
  trips: `${ExportArchive.root}/${ExportArchive.trips}`,
} as const;

/** Whether the manifest is a Wayfarer export this version reads. */
export const isWayfarerManifest = (document: unknown): boolean =>
  ExportManifest.safeParse(document).success;

const ExportedTrips = z.array(ExportedTrip);

/**
 * The trips of a Wayfarer export's `trips.json` (contracts' `ExportedTrip[]`) with their
 * visibility, each photo found by its path under the archive's root (a photo the archive does
 * not hold is counted in `missingPhotos`). Null when `trips.json` is not that.
 */
export function wayfarerTrips(
  document: unknown,
  entries: ReadonlyMap<string, { bytes: number }>,
): { trips: DraftTrip[]; missingPhotos: number } | null {
  const parsed = ExportedTrips.safeParse(document);
  if (!parsed.success) return null;
  let missingPhotos = 0;
  const trips = parsed.data.map((trip): DraftTrip => ({
    name: trip.name,
    visibility: trip.visibility,
    places: trip.destinations.map((d) => ({
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate.slice(0, 10),
      endDate: d.endDate.slice(0, 10),
      story: d.story,
      photos: d.photos.flatMap((path): PhotoRef[] => {
        // under the root, whether the path names it or not
        const root = `${ExportArchive.root}/`;
        const entry = path.startsWith(root) ? path : `${root}${path}`;
        const found = entries.get(entry);
        if (found) return [{ entry, bytes: found.bytes }];
        missingPhotos++;
        return [];
      }),
    })),
  }));
  return { trips, missingPhotos };
}
