import type { OwnMarker } from '../map/types';
import type { Destination, Trip, TripSummary } from './api';

/** Marker ids of destinations not saved yet (the add-trip preview): they have no journal. */
export const DRAFT_MARKER_PREFIX = 'draft:';

export function isDraftMarkerId(id: string): boolean {
  return id.startsWith(DRAFT_MARKER_PREFIX);
}

/**
 * One destination as an own-destination pin. `tripId` is given
 * for a summary's destination (its photos are only the first): the info window loads the rest.
 */
export function destinationMarker(destination: Destination, tripId?: string): OwnMarker {
  return {
    kind: 'own',
    id: destination._id,
    name: destination.name,
    lat: destination.latitude,
    lng: destination.longitude,
    startDate: destination.startDate,
    endDate: destination.endDate,
    photos: destination.photos ?? [],
    ...(tripId ? { tripId } : {}),
  };
}

const hasPosition = (d: Destination) =>
  Number.isFinite(d.latitude) &&
  Number.isFinite(d.longitude) &&
  Math.abs(d.latitude) <= 90 &&
  Math.abs(d.longitude) <= 180;

/** One trip's destinations as pins, with all their photos (its detail page). */
export function tripMarkers(trips: readonly Trip[]): OwnMarker[] {
  return trips.flatMap((trip) =>
    (trip.destinations ?? []).filter(hasPosition).map((d) => destinationMarker(d)),
  );
}

/** Every destination of these trip summaries as pins (the /trips map), naming their trip. */
export function summaryMarkers(trips: readonly TripSummary[]): OwnMarker[] {
  return trips.flatMap((trip) =>
    (trip.destinations ?? []).filter(hasPosition).map((d) => destinationMarker(d, trip._id)),
  );
}
