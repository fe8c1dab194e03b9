import { useEffect, useState } from 'react';
import type { MarkerPhotosHook } from '../map/MarkerPhotos';
import { watchTrip } from './api';

/**
 * The photos of a destination pin made from a trip summary (`tripId` set): the summary names
 * only the first, so the whole list is loaded with the trip (`GET /api/trips/:id`) when its
 * info window opens, and followed while display variants are being made. Until then, or when
 * the load fails, the marker's own photos. Other markers: their own photos.
 */
export const useTripPhotos: MarkerPhotosHook = (marker) => {
  const tripId = marker.kind === 'own' ? marker.tripId : undefined;
  const key = tripId ? `${tripId}/${marker.id}` : '';
  const [loaded, setLoaded] = useState<{ key: string; photos: readonly string[] } | null>(null);

  useEffect(() => {
    if (!tripId) return;
    const controller = new AbortController();
    watchTrip(tripId, controller.signal, (trip) => {
      const destination = trip.destinations.find((d) => d._id === marker.id);
      if (destination) setLoaded({ key, photos: destination.photos });
    }).catch((error: unknown) => {
      if (!controller.signal.aborted) console.error('Failed to load the photos', error);
    });
    return () => controller.abort();
  }, [tripId, marker.id, key]);

  return loaded && loaded.key === key ? loaded.photos : marker.photos;
};
