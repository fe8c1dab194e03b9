import { z } from 'zod';
import { Trip, TripLimits, TripVisibility } from './trips';

/**
 * Data out (per-trip files, the whole-account ZIP) and in (`POST /api/import`).
 * The trips service serves all three (docs/architecture.md, "Export and import"); the other
 * services each answer their own area of the ZIP at `INTERNAL_EXPORT_PATH`.
 */

/** The per-trip files: `GET /api/trips/{id}/export.<format>`. */
export const TripExportFormats = ['gpx', 'kml', 'geojson', 'ics'] as const;
export type TripExportFormat = (typeof TripExportFormats)[number];

/** Where a trip's file is downloaded (the trip's owner only; anyone else 404). */
export const tripExportPath = (tripId: string, format: TripExportFormat): string =>
  `/api/trips/${encodeURIComponent(tripId)}/export.${format}`;

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

// ---------------------------------------------------------------------- POST /api/import

const MiB = 1024 * 1024;

/** `POST /api/import`: a multipart form with one file part of this name. */
export const IMPORT_FIELD = 'file';

/** What `POST /api/import` reads (by the file's bytes, never by its name or declared type). */
export const ImportFormats = ['gpx', 'kml', 'geojson', 'polarsteps', 'wayfarer'] as const;
export type ImportFormat = (typeof ImportFormats)[number];

/** The `accept` attribute of the import's file input (a hint; the service decides by bytes). */
export const IMPORT_ACCEPT = '.gpx,.kml,.geojson,.json,.zip';

/**
 * The import's bounds (each set where a real
 * traveller's export never reaches it, and refused up front, by a message naming it, rather than
 * paid for). The upload is spooled to a file, never held in memory; a ZIP is read from that file
 * entry by entry, with every inflated byte counted.
 */
export const ImportLimits = {
  /** The uploaded file (the route's multipart file limit; the gateway's cap is derived). */
  fileMaxBytes: 256 * MiB,
  /** A GeoJSON file, or a JSON document inside a ZIP (read whole to parse it). */
  textMaxBytes: 32 * MiB,
  /**
   * A GPX or KML file. Parsed whole into a DOM (xmldom), which takes some 60 times its size in
   * memory and about a second per MiB: 4 MiB (some 40,000 track points) keeps one parse near
   * 250 MB, and the service runs one at a time, in a worker thread (docs/services/trips.md, "Import").
   */
  xmlMaxBytes: 4 * MiB,
  /** Entries a ZIP may list. */
  zipEntriesMax: 20_000,
  /**
   * Bytes a ZIP may hold once uncompressed, as its entries state them and as they are inflated
   * (all entries together). Photos and videos hardly compress, so a real export states about
   * the size of its file (at most `fileMaxBytes`); twice that is left for its JSON.
   */
  zipTotalMaxBytes: 512 * MiB,
  /**
   * Inflated bytes of the JSON documents one import reads and parses, all together (a
   * Polarsteps export's `trip.json` files, a Wayfarer export's `trips.json`): a few hundred KB
   * per trip in real exports. What made a 1.2 MB ZIP of a thousand blank-padded 1 MiB documents
   * cost 11 s of CPU.
   */
  documentsMaxBytes: 64 * MiB,
  /** Inflated over compressed size of one entry past `zipRatioFromBytes` (a ZIP bomb's mark). */
  zipRatioMax: 100,
  zipRatioFromBytes: 1 * MiB,
  /**
   * Trips one import creates at most, once long trips are split into parts within
   * `TripLimits` (a Polarsteps export of more trips is refused before its trips are read).
   */
  tripsMax: 100,
  /** Places (destinations) one import may hold, all trips together. */
  destinationsMax: 2_000,
  /** Photos one import may hold (each goes through the image pipeline: ~0.5 s of CPU). */
  photosMax: 500,
  /**
   * How long reading the file may take before anything is created (the archive opened, its
   * JSON read and parsed), ms: the service's default (`IMPORT_READ_TIMEOUT_MS`). A GPX or KML
   * file's parse has its worker thread's own bound (`IMPORT_XML_TIMEOUT_MS`).
   */
  readMaxMs: 30_000,
  /**
   * Imports one user may start in a rolling hour (a retry of an import with its
   * `Idempotency-Key` is not a new one); past it, 429 with `Retry-After`.
   */
  perUserPerHour: 30,
  /** The rolling window of `perUserPerHour`, ms. */
  rateWindowMs: 60 * 60_000,
  /**
   * How long the gateway waits for the import's answer once the file is sent (every photo goes
   * through the image pipeline first: about half a second each for a phone photo on one core).
   * Other routes answer within the gateway's `UPSTREAM_TIMEOUT_MS`.
   */
  answerTimeoutMs: 10 * 60_000,
} as const;

/** A duration in words for a message (`30 seconds`, `1 second`, `250 ms`). */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** Minutes in words, rounded up (`1 minute`, `12 minutes`). */
function minutes(ms: number): string {
  const n = Math.max(1, Math.ceil(ms / 60_000));
  return `${n} minute${n === 1 ? '' : 's'}`;
}

/** The `error` of an import refused for one of `ImportLimits` (413; 429 for the rate). */
export const ImportErrors = {
  /** The file asks for more than one import may do (trips, places, photos, bytes, time). */
  limit: 'import_limit',
  /** The user started `ImportLimits.perUserPerHour` imports in the last hour. */
  rate: 'import_rate_limited',
} as const;

export const ImportMessages = {
  unsupported:
    'This file cannot be imported: send a GPX, KML or GeoJSON (FeatureCollection of points) file, a Polarsteps data export (ZIP) or a Wayfarer export (ZIP).',
  empty: 'The file is empty.',
  notMultipart: `An import must be sent as multipart/form-data with the file in the "${IMPORT_FIELD}" field.`,
  noFile: `No file: send it in the "${IMPORT_FIELD}" field.`,
  tooManyFiles: 'Send one file at a time.',
  fileTooLarge: `The file is too large: an import may be at most ${ImportLimits.fileMaxBytes / MiB} MB.`,
  textTooLarge: `The file is too large: a GeoJSON or JSON document may be at most ${ImportLimits.textMaxBytes / MiB} MB.`,
  xmlTooLarge: `The file is too large: a GPX or KML file may be at most ${ImportLimits.xmlMaxBytes / MiB} MB.`,
  xmlDeclarations:
    'The XML file declares a DOCTYPE or entities, which are not accepted (GPX and KML need none).',
  badXml: 'The XML file could not be read (it is not well-formed).',
  /** Its parse ran out of the time or memory an import's parse is given (trips' XML worker). */
  xmlTooHeavy:
    'The XML file could not be read within the time and memory an import may take: split it into smaller files.',
  badJson: 'The JSON file could not be read.',
  badZip: 'The ZIP archive could not be read.',
  unsafeZip: (reason: string) => `The ZIP archive was refused: ${reason}.`,
  /** `ImportLimits.zipTotalMaxBytes` (stated or inflated). */
  zipTooLarge: `it is too large once uncompressed (an import may unpack at most ${ImportLimits.zipTotalMaxBytes / MiB} MB)`,
  nothingToImport: 'The file has no places with coordinates to import.',
  /** 503: the import lost its hold on its record (judged dead): nothing of it is kept. */
  interrupted:
    'The import was interrupted before it finished; nothing of it was kept. Please try again.',
  /** 503: the import is committed but its trips could not be shown yet (a retry shows them). */
  notShownYet:
    'The import is done but its trips could not be shown yet; please try again to see them.',
  /** 503: a retry waited for the import of its key, still running, past the answer's time. */
  stillRunning: 'This import is still running; please try again in a while.',
  imported: (trips: number) => `Imported ${trips} trip${trips === 1 ? '' : 's'}.`,
  // each limit named, with what to do
  tooManyTrips: `This file holds more trips than one import may create (at most ${ImportLimits.tripsMax}, long trips counted in parts of ${TripLimits.destinationsMax} places): split it into smaller files.`,
  tooManyDestinations: `This file holds more places than one import may take (at most ${ImportLimits.destinationsMax}): split it into smaller files.`,
  tooManyPhotos: `This file holds more photos than one import may take (at most ${ImportLimits.photosMax}): split it into smaller files.`,
  documentsTooLarge: `This file's trip data is too large once uncompressed (an import may read at most ${ImportLimits.documentsMaxBytes / MiB} MB of JSON): split it into smaller files.`,
  tooSlow: (ms: number) =>
    `This file could not be read within ${duration(ms)}, the time an import may take to read its file: split it into smaller files.`,
  rateLimited: (retryAfterMs: number) =>
    `Too many imports: you may start at most ${ImportLimits.perUserPerHour} in an hour. Try again in ${minutes(retryAfterMs)}.`,
} as const;

/**
 * The answer of `POST /api/import` (201): the trips created, each as `GET /api/trips/{id}`
 * answers it, and what was left out to keep within `TripLimits` and `ImportLimits`.
 */
export const ImportResult = z.object({
  format: z.enum(ImportFormats),
  trips: z.array(Trip),
  skipped: z.object({
    /** Photos over a destination's count or the per-photo size, or not an image. */
    photos: z.number().int().nonnegative(),
    /** Places without usable coordinates. */
    destinations: z.number().int().nonnegative(),
    /** Trips with nothing to import (no place with coordinates). */
    trips: z.number().int().nonnegative(),
  }),
  message: z.string(),
});
export type ImportResult = z.infer<typeof ImportResult>;
