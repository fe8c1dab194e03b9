import { SELECTED_ZOOM } from './constants';
import type { MapMarker, MapView } from './types';

/**
 * The selected-marker state, shaped as the spec describes it: a tuple whose second element
 * says whether scroll-zoom and gestures are enabled.
 *
 * What sets the boolean:
 * - `true` while nothing is selected: the user explores the map freely (drag, scroll-zoom,
 *   pinch, double-click, keyboard).
 * - `false` from the moment a pin is selected until its info window closes. The map is
 *   parked on the pin at zoom 6 so the info window stays next to it, scrolling inside the
 *   info window never zooms the map underneath, and closing can restore exactly the view the
 *   user had before (the zoom buttons stay usable).
 */
export type SelectedMarkerState = [selected: MapMarker | null, interactive: boolean];

export interface Selection {
  state: SelectedMarkerState;
  /** The view before the current selection, restored on close. */
  previousView: MapView | null;
}

export const NO_SELECTION: Selection = { state: [null, true], previousView: null };

/** A pin can be selected only when none is currently selected. */
export function canSelect(selection: Selection): boolean {
  return selection.state[0] === null;
}

export function gesturesEnabled(selection: Selection): boolean {
  return selection.state[1];
}

export interface Transition {
  selection: Selection;
  /** Where the map should move, or null for no move. */
  moveTo: MapView | null;
}

/**
 * Selecting a pin: refused (no change, no move) while another is selected; otherwise the pin
 * becomes selected, gestures are switched off, the current view is remembered and the map pans
 * to the pin at zoom 6.
 */
export function selectMarker(
  selection: Selection,
  marker: MapMarker,
  currentView: MapView,
): Transition {
  if (!canSelect(selection)) return { selection, moveTo: null };
  return {
    selection: { state: [marker, false], previousView: currentView },
    moveTo: { center: { lat: marker.lat, lng: marker.lng }, zoom: SELECTED_ZOOM },
  };
}

/** Closing the info window: back to no selection and to the view from before it opened. */
export function closeSelection(selection: Selection): Transition {
  if (selection.state[0] === null) return { selection, moveTo: null };
  return { selection: NO_SELECTION, moveTo: selection.previousView };
}

/**
 * When the route's markers change under an open info window, the selection stays only if its
 * marker is still there (refreshed to the new object); otherwise it closes without moving
 * (the new markers bring their own fit).
 */
export function reconcileSelection(selection: Selection, markers: readonly MapMarker[]): Selection {
  const selected = selection.state[0];
  if (!selected) return selection;
  const fresh = markers.find((m) => m.id === selected.id && m.kind === selected.kind);
  if (!fresh) return NO_SELECTION;
  if (fresh === selected) return selection;
  return { ...selection, state: [fresh, selection.state[1]] };
}

/** The view that focuses a marker from a list: pan to it at the selected-pin zoom. */
export function focusView(marker: MapMarker): MapView {
  return { center: { lat: marker.lat, lng: marker.lng }, zoom: SELECTED_ZOOM };
}
