import { z } from 'zod';
import { TripVisibility } from './trips';

/**
 * Issue 22: data out (per-trip files, the whole-account ZIP) and in (`POST /api/import`).
 * The trips service serves all three (docs/architecture.md, "Export and import"); the other
 * services each answer their own area of the ZIP at `INTERNAL_EXPORT_PATH`.
 */

/** The per-trip files: `GET /api/trips/{id}/export.<format>`. */
export const TripExportFormats = ['gpx', 'kml', 'geojson', 'ics'] as const;
export type TripExportFormat = (typeof TripExportFormats)[number];

/** Each format's media type (the `Content-Type` of its download). */
export const TripExportMediaTypes: Readonly<Record<TripExportFormat, string>> = {
  gpx: 'application/gpx+xml',
  kml: 'application/vnd.google-earth.kml+xml',
  geojson: 'application/geo+json',
  ics: 'text/calendar; charset=utf-8',
};

/**
 * One area of a user's data as its owning service answers it to the export (a `GET` with an
 * identity proof for the user, never routed by the gateway): `{area, items}`, items being that
 * service's own JSON (documented in its README).
 */
export const INTERNAL_EXPORT_PATH = '/internal/export';

export const ExportAreas = ['profile', 'journal', 'bucketlist', 'friends', 'messages'] as const;
export type ExportArea = (typeof ExportAreas)[number];

export const ExportAreaDocument = z.object({
  area: z.enum(ExportAreas),
  items: z.array(z.unknown()),
});
export type ExportAreaDocument = z.infer<typeof ExportAreaDocument>;

/**
 * The layout of `GET /api/export` (a ZIP; every entry under `root/`):
 * - `manifest.json`: `ExportManifest`;
 * - `trips.json`: `ExportedTrip[]`, each photo named by its path in the archive;
 * - `<area>.json` for each of `ExportAreas`: that area's `ExportAreaDocument`;
 * - `photos/<tripId>/<photoId>.<ext>`: every original photo;
 * - `trips/<tripId>/trip.<format>` for each of `TripExportFormats`.
 * `POST /api/import` reads the same archive back (the round trip).
 */
export const ExportArchive = {
  root: 'wayfarer-export',
  manifest: 'manifest.json',
  trips: 'trips.json',
  photosDir: 'photos',
  tripFilesDir: 'trips',
  format: 'wayfarer-export',
  version: 1,
} as const;

export const ExportManifest = z.object({
  format: z.literal(ExportArchive.format),
  version: z.literal(ExportArchive.version),
  exportedAt: z.string(),
  /** Areas whose service could not answer: the archive says so instead of failing whole. */
  missingAreas: z.array(z.enum(ExportAreas)).default([]),
});
export type ExportManifest = z.infer<typeof ExportManifest>;

export const ExportedDestination = z.object({
  id: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  story: z.string(),
  /** Paths inside the archive (`photos/<tripId>/<photoId>.<ext>`, under `root/`). */
  photos: z.array(z.string()),
});
export type ExportedDestination = z.infer<typeof ExportedDestination>;

export const ExportedTrip = z.object({
  id: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  visibility: TripVisibility,
  destinations: z.array(ExportedDestination),
});
export type ExportedTrip = z.infer<typeof ExportedTrip>;
