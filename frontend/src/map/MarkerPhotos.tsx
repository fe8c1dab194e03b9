import { createContext, useContext } from 'react';
import type { FriendMarker, OwnMarker } from './types';

/**
 * Where an info window's carousel gets a destination's photos. By default the marker's own
 * `photos`; a screen whose markers carry only a thumbnail (the /trips list reads trip
 * summaries) provides a hook that loads the whole list when the window opens. The value is a
 * hook: it must be the same function for the life of the provider.
 */
export type MarkerPhotosHook = (marker: OwnMarker | FriendMarker) => readonly string[];

const markerOwnPhotos: MarkerPhotosHook = (marker) => marker.photos;

export const MarkerPhotosContext = createContext<MarkerPhotosHook>(markerOwnPhotos);

/** The photos the info window of `marker` shows. */
export function useMarkerPhotos(marker: OwnMarker | FriendMarker): readonly string[] {
  const usePhotos = useContext(MarkerPhotosContext);
  return usePhotos(marker);
}
