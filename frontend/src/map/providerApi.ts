import type { InfoWindowSlots } from './InfoWindow';
import type { MapHandle, MapMarker, MapUser } from './types';

/**
 * The small interface both map providers implement (keyless MapLibre and Google Maps).
 * Screens never see it: they render `WorldMap`, which picks the provider.
 */
export interface MapProviderProps extends InfoWindowSlots {
  markers: readonly MapMarker[];
  /** The signed-in user, shown in the info window of their own destinations. */
  user?: MapUser;
  /** Zooms to this marker (zoom 6) when it changes, as choosing it in a list does. */
  focusedId?: string | null;
  /** Bump to focus the same marker again. */
  focusNonce?: number;
  /** Receives the map's handle once it is ready, and null when it goes away. */
  onReady?: (handle: MapHandle | null) => void;
  /** Told whenever the selected marker changes (null when the info window closes). */
  onSelectionChange?: (marker: MapMarker | null) => void;
}

/** Google-only knobs (tests shorten the retry delays). */
export interface GoogleLoadOptions {
  /** First retry delay; later ones double. Default 1000 ms. */
  retryBaseDelayMs?: number;
  /** How long one attempt to load the script may take. Default 15 s. */
  attemptTimeoutMs?: number;
}
