import type { ImportFormat, TripVisibility } from '@wayfarer/contracts';

/*
 * What each parser makes of a file before the import's rules apply (`plan.ts`): trips of
 * places, as the file says them (text not yet cleaned or cut, dates optional, coordinates
 * unchecked), and photos named by their ZIP entry.
 */

/** A photo inside the uploaded ZIP: its entry's name and its size as the ZIP states it. */
export interface PhotoRef {
  entry: string;
  bytes: number;
}

export interface DraftPlace {
  name: string;
  latitude: number;
  longitude: number;
  /** `YYYY-MM-DD`, when the file dates the place. */
  startDate?: string;
  endDate?: string;
  story: string;
  photos: PhotoRef[];
}

export interface DraftTrip {
  name: string;
  places: DraftPlace[];
  /** Kept from a Wayfarer export; `friends` (TripInput's default) otherwise. */
  visibility?: TripVisibility;
}

export interface ImportDraft {
  format: ImportFormat;
  trips: DraftTrip[];
  /** Places the parser could not use (no point, no coordinates). */
  skippedPlaces: number;
  /** Photos the file names but does not hold. */
  skippedPhotos?: number;
}

/** `YYYY-MM-DD` of an instant in UTC (a GPX `<time>`, a KML `<when>`). */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The calendar day a file's date or timestamp names, as written (`2024-05-01`,
 * `2024-05-01T23:30:00+02:00` is 1 May, the traveller's day), or undefined when it is none.
 */
export function dayOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_DAY.exec(value.trim());
  if (!m) return undefined;
  const day = m[0];
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && utcDate(date) === day ? day : undefined;
}
