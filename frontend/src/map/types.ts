/**
 * Map markers. Every marker carries a `kind` so the map knows
 * which pin colour and which info-window variant to use; the rest follows the spec's shapes.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** A destination of one of the user's own trips. */
export interface OwnMarker extends LatLng {
  kind: 'own';
  id: string;
  name: string;
  startDate?: string;
  endDate?: string;
  photos: string[];
  /**
   * Set when `photos` may be only the first photo (markers made from trip summaries): the
   * trip whose detail holds them all (see `MarkerPhotosContext`).
   */
  tripId?: string;
}

/** A destination of a friend's trip: the same shape plus who it belongs to. */
export interface FriendMarker extends LatLng {
  kind: 'friend';
  id: string;
  name: string;
  startDate?: string;
  endDate?: string;
  photos: string[];
  /**
   * Set when `photos` may be only the first photo (markers made from `GET /api/friends`): the
   * friend whose destination detail holds them all (see `MarkerPhotosContext`).
   */
  friendId?: string;
  friendName: string;
  friendPicture?: string | null;
}

/** A bucket list place: `{id, lat, lng, place}`. */
export interface BucketMarker extends LatLng {
  kind: 'bucket';
  id: string;
  place: string;
}

/**
 * A destination of a trip shown through a share link (the public page `/s/{token}`):
 * its name, dates and photos; no owner, no journal box.
 */
export interface SharedMarker extends LatLng {
  kind: 'shared';
  id: string;
  name: string;
  startDate?: string;
  endDate?: string;
  photos: string[];
}

export type MapMarker = OwnMarker | FriendMarker | BucketMarker | SharedMarker;
export type MarkerKind = MapMarker['kind'];

/** The title an info window and a pin's accessible name use: `name`, or `place` for bucket items. */
export function markerTitle(marker: MapMarker): string {
  return marker.kind === 'bucket' ? marker.place : marker.name;
}

/** Centre and zoom (spec zoom units, see constants.ts). */
export interface MapView {
  center: LatLng;
  zoom: number;
}

/** Who the signed-in user is, for the "own destination" info window. */
export interface MapUser {
  name?: string | null;
  picture?: string | null;
}

/**
 * What a provider exposes once it is ready: the screens use `focus`, tests read the view.
 * Zoom is in spec units whatever the provider.
 */
export interface MapHandle {
  readonly provider: 'keyless' | 'google';
  getZoom(): number;
  getCenter(): LatLng;
  /** Pans and zooms to a marker (zoom 6) without opening its info window. */
  focus(markerId: string): boolean;
  /** Selects a marker as a click on its pin does; false when refused (one is already selected). */
  select(markerId: string): boolean;
  /** Moves the map at once (spec zoom units). */
  setView(view: MapView): void;
  /** Closes the info window, restoring the previous view. */
  close(): void;
  /** Whether scroll-zoom and gestures are enabled now. */
  isInteractive(): boolean;
}
