import type { DestinationDoc, TripDoc } from '../trip';

/**
 * What every per-trip file is written from: a trip document's fields (a `TripDoc` is one; the
 * photos are not exported in these files). `createdAt` stands in for "now" where a format needs
 * a timestamp and the caller gives none.
 */
export interface ExportableTrip extends Pick<TripDoc, '_id' | 'name' | 'startDate' | 'endDate'> {
  destinations: readonly Pick<
    DestinationDoc,
    '_id' | 'name' | 'latitude' | 'longitude' | 'startDate' | 'endDate' | 'story'
  >[];
  createdAt?: Date;
}

export type ExportedPlace = ExportableTrip['destinations'][number];

/** The name the files give a trip saved without one (the app's own words for it). */
export const UNTITLED_TRIP = 'Untitled trip';

export const tripTitle = (trip: Pick<ExportableTrip, 'name'>): string =>
  trip.name.trim() || UNTITLED_TRIP;

/** `YYYY-MM-DD` of a stored date (trips stores dates that way; anything after it is cut). */
export const dateOnly = (date: string): string => date.slice(0, 10);

/**
 * A coordinate as a plain decimal (`xsd:decimal`, ICS `FLOAT`, a KML tuple): the shortest text
 * reading back as the same number, never in exponent form (`1e-7` is `0.0000001`).
 */
export function decimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}
