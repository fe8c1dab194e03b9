import { VISIT_RADIUS_KM } from '@wayfarer/contracts';
import { distanceKm, type Point } from './distance';

export interface UnvisitedPlace extends Point {
  id: string;
}

/**
 * The places a trip ticks off: those within `radiusKm` (VISIT_RADIUS_KM) of at least one of its
 * destinations. Only the owner's unvisited places are given; the caller applies the result.
 */
export function placesVisitedBy(
  places: readonly UnvisitedPlace[],
  destinations: readonly Point[],
  radiusKm: number = VISIT_RADIUS_KM,
): string[] {
  return places
    .filter((place) => destinations.some((d) => distanceKm(place, d) <= radiusKm))
    .map((place) => place.id);
}

/** Item ids are UUIDs (made by the service); any other text names no item. */
const ITEM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isItemId = (id: string): boolean => ITEM_ID.test(id);

/** Whether two itineraries are the same list (saving it again changes nothing). */
export function sameItinerary(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}
