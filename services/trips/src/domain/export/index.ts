import {
  TripExportFormats,
  TripExportMediaTypes,
  type TripExportFormat,
} from '@wayfarer/contracts';
import { tripGeoJson } from './geojson';
import { tripGpx } from './gpx';
import { tripIcs } from './ics';
import { tripKml } from './kml';
import type { ExportableTrip } from './text';

export type { ExportableTrip } from './text';
export { UNTITLED_TRIP } from './text';

/*
 * The per-trip files (`GET /api/trips/{id}/export.<format>`, and each trip's files
 * in the whole-account ZIP): pure writers, one per format, from the trip document.
 */

export interface TripFile {
  /** The file's text (UTF-8 when sent or stored). */
  body: string;
  /** contracts' `TripExportMediaTypes` of the format. */
  contentType: string;
  /** `<slug>.<format>`: `tripFileSlug` of the trip's name. */
  fileName: string;
}

export interface ExportOptions {
  /** The export's time (the ICS `DTSTAMP`); default: the trip's creation. */
  now?: Date;
}

const WRITERS: Record<TripExportFormat, (trip: ExportableTrip, options: ExportOptions) => string> =
  {
    gpx: (trip) => tripGpx(trip),
    kml: (trip) => tripKml(trip),
    geojson: (trip) => tripGeoJson(trip),
    ics: (trip, options) => tripIcs(trip, options.now),
  };

export const ExportMessages = {
  /** 400: `export.<format>` with a format that is not one of `TripExportFormats`. */
  unknownFormat: `Unknown export format: a trip exports as ${TripExportFormats.map((f) => `.${f}`).join(', ')} (GET /api/trips/{id}/export.<format>).`,
} as const;

/** Whether `value` names one of the per-trip formats (`TripExportFormats`). */
export const isTripExportFormat = (value: string): value is TripExportFormat =>
  (TripExportFormats as readonly string[]).includes(value);

/** The most characters of a file name's slug (the extension not counted). */
const SLUG_MAX = 60;
const SLUG_FALLBACK = 'trip';

/**
 * A safe ASCII file name stem for a trip's name: accents dropped (`Café` is `cafe`), lower
 * case, every run of other characters a single `-`, at most 60 characters, no `-` at either
 * end; `trip` when nothing is left (no name, or a name in another script).
 */
export function tripFileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
  return slug || SLUG_FALLBACK;
}

/** Characters no file name may hold on a common system (and the controls). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_IN_FILE_NAMES = /[\u0000-\u001F\u007F/\\:*?"<>|]+/g;

/**
 * The file's name as the trip is called (`Été à Kyōto.gpx`), for the UTF-8 form of a download's
 * name: characters no file system takes as `-`, blanks collapsed, at most 60 characters (whole
 * code points), `tripFileSlug`'s name when nothing is left.
 */
export function tripFileTitle(name: string, format: TripExportFormat): string {
  const title = [
    ...name.normalize('NFC').replace(NOT_IN_FILE_NAMES, '-').replace(/\s+/g, ' ').trim(),
  ]
    .slice(0, SLUG_MAX)
    .join('')
    .trim()
    .replace(/^\.+/, '');
  return `${title || tripFileSlug(name)}.${format}`;
}

/** The trip as a file of `format`: its text, media type and file name. */
export function exportTripFile(
  trip: ExportableTrip,
  format: TripExportFormat,
  options: ExportOptions = {},
): TripFile {
  return {
    body: WRITERS[format](trip, options),
    contentType: TripExportMediaTypes[format],
    fileName: `${tripFileSlug(trip.name)}.${format}`,
  };
}
