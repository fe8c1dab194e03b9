import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  NO_SELECTION,
  closeSelection,
  reconcileSelection,
  selectMarker,
  type Selection,
} from './selection';
import type { MapMarker, MapView } from './types';

/** What the selection needs from a provider's map. */
export interface SelectionCamera {
  getView(): MapView;
  moveTo(view: MapView, reason: 'select' | 'restore'): void;
}

/**
 * The selected-marker state of a provider (rules in selection.ts): select only when none is
 * selected, close on Escape, restore the view on close, follow marker changes. Focus goes back
 * to the element that was focused before the info window opened (usually the pin).
 */
export function useMarkerSelection(
  camera: RefObject<SelectionCamera | null>,
  markers: readonly MapMarker[],
  onSelectionChange?: (marker: MapMarker | null) => void,
) {
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const current = useRef(selection);
  const returnFocus = useRef<HTMLElement | null>(null);
  const notify = useRef(onSelectionChange);
  notify.current = onSelectionChange;

  const commit = useCallback((next: Selection) => {
    const changed = next.state[0] !== current.current.state[0];
    current.current = next;
    setSelection(next);
    if (changed) notify.current?.(next.state[0]);
  }, []);

  const select = useCallback(
    (marker: MapMarker): boolean => {
      const cam = camera.current;
      if (!cam) return false;
      const { selection: next, moveTo } = selectMarker(current.current, marker, cam.getView());
      if (next === current.current) return false;
      returnFocus.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      commit(next);
      if (moveTo) cam.moveTo(moveTo, 'select');
      return true;
    },
    [camera, commit],
  );

  const close = useCallback(() => {
    const { selection: next, moveTo } = closeSelection(current.current);
    if (next === current.current) return;
    commit(next);
    if (moveTo) camera.current?.moveTo(moveTo, 'restore');
    const back = returnFocus.current;
    returnFocus.current = null;
    if (back?.isConnected) back.focus({ preventScroll: true });
  }, [camera, commit]);

  useEffect(() => {
    const next = reconcileSelection(current.current, markers);
    if (next !== current.current) commit(next);
  }, [markers, commit]);

  const open = selection.state[0] !== null;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  return {
    selection,
    selected: selection.state[0],
    interactive: selection.state[1],
    select,
    close,
    /** The current state without waiting for a render (handles, tests). */
    peek: () => current.current,
  };
}
