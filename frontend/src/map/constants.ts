/**
 * Map constants from the spec (section 9, "Map"). Zoom levels are in the spec's units: the
 * Google Maps scale, where the world is 256 px wide at zoom 0. The keyless provider (MapLibre,
 * 512 px tiles) converts with `toMapLibreZoom`, so both providers show the same view.
 */
export const DEFAULT_ZOOM = 2.5;
export const MIN_FIT_ZOOM = 2;
export const MAX_FIT_ZOOM = 6.5;
export const SELECTED_ZOOM = 6;
export const EMPTY_ZOOM = 2;
export const EMPTY_CENTER = { lat: 0, lng: 0 } as const;

/** Pin icon size, px (square). */
export const PIN_SIZE = 30;

/** Marker clustering (spec: the clusterer library's defaults). */
export const CLUSTER_GRID_SIZE = 60;
export const CLUSTER_MIN_SIZE = 2;
export const CLUSTER_BATCH_SIZE = 2000;

/** Maps script loading: retried up to 3 times, with growing delays. */
export const MAPS_LOAD_RETRIES = 3;
export const MAPS_RETRY_BASE_DELAY_MS = 1000;

/** Padding (px) kept around the markers when fitting the map to them. */
export const FIT_PADDING = 48;

/** Google's world is 256 px wide at zoom 0; MapLibre's is 512 px. */
export function toMapLibreZoom(specZoom: number): number {
  return specZoom - 1;
}

export function fromMapLibreZoom(mapLibreZoom: number): number {
  return mapLibreZoom + 1;
}
