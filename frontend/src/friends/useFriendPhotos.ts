import { useEffect, useState } from 'react';
import type { MarkerPhotosHook } from '../map/MarkerPhotos';
import { fetchFriendDestination } from './api';

/**
 * The photos of a friend's destination pin (`friendId` set): `GET /api/friends` names only the
 * first, so every photo is read from
 * `GET /api/friends/{friendId}/destinations/{destinationId}` when its info window opens. Until
 * then, or when the read fails (the friendship just ended, say), the marker's own photos.
 * Other markers: their own photos.
 */
export const useFriendPhotos: MarkerPhotosHook = (marker) => {
  const friendId = marker.kind === 'friend' ? marker.friendId : undefined;
  const key = friendId ? `${friendId}/${marker.id}` : '';
  const [loaded, setLoaded] = useState<{ key: string; photos: readonly string[] } | null>(null);

  useEffect(() => {
    if (!friendId) return;
    const controller = new AbortController();
    fetchFriendDestination(friendId, marker.id, controller.signal)
      .then((destination) => setLoaded({ key, photos: destination.photos }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Failed to load the photos', error);
      });
    return () => controller.abort();
  }, [friendId, marker.id, key]);

  return loaded && loaded.key === key ? loaded.photos : marker.photos;
};
