import type { OwnMarker } from '../map/types';
import type { Destination, Trip } from './api';

/** Marker ids of destinations not saved yet (the add-trip preview): they have no journal. */
export const DRAFT_MARKER_PREFIX = 'draft:';

export function isDraftMarkerId(id: string): boolean {
  return id.startsWith(DRAFT_MARKER_PREFIX);
}

/** One destination as an own-destination pin (spec section 3, "Map marker"). */
export function destinationMarker(destination: Destination): OwnMarker {
  return {
    kind: 'own',
    id: destination._id,
    name: destination.name,
    lat: destination.latitude,
    lng: destination.longitude,
    startDate: destination.startDate,
    endDate: destination.endDate,
    photos: destination.photos ?? [],
  };
}

const hasPosition = (d: Destination) =>
  Number.isFinite(d.latitude) &&
  Number.isFinite(d.longitude) &&
  Math.abs(d.latitude) <= 90 &&
  Math.abs(d.longitude) <= 180;

/** Every destination of these trips as pins (the /trips map); one trip for its detail page. */
export function tripMarkers(trips: readonly Trip[]): OwnMarker[] {
  return trips.flatMap((trip) =>
    (trip.destinations ?? []).filter(hasPosition).map(destinationMarker),
  );
}
