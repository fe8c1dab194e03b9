import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { MapMarker } from './types';

/**
 * The protected layout's map context: the current page says which markers the map shows
 * (`useMapMarkers`) and can zoom to one of them (`useMapFocus`); the map column reads both.
 */
interface MapContextValue {
  markers: readonly MapMarker[];
  setMarkers: (markers: readonly MapMarker[]) => void;
  focus: { id: string; nonce: number } | null;
  focusMarker: (id: string | null) => void;
}

const EMPTY: readonly MapMarker[] = Object.freeze([]);

const MapContext = createContext<MapContextValue | null>(null);

export function MapMarkersProvider({ children }: { children: ReactNode }) {
  const [markers, setMarkersState] = useState<readonly MapMarker[]>(EMPTY);
  const [focus, setFocus] = useState<{ id: string; nonce: number } | null>(null);
  const setMarkers = useCallback((next: readonly MapMarker[]) => {
    setMarkersState(next.length === 0 ? EMPTY : next);
  }, []);
  const focusMarker = useCallback((id: string | null) => {
    setFocus((prev) => (id ? { id, nonce: (prev?.nonce ?? 0) + 1 } : null));
  }, []);
  const value = useMemo(
    () => ({ markers, setMarkers, focus, focusMarker }),
    [markers, setMarkers, focus, focusMarker],
  );
  return <MapContext.Provider value={value}>{children}</MapContext.Provider>;
}

function useMapContext(): MapContextValue {
  const value = useContext(MapContext);
  if (!value) throw new Error('Map hooks must be used inside MapMarkersProvider');
  return value;
}

/** A content signature, so a page re-rendering with equal markers doesn't refresh the map. */
function signature(markers: readonly MapMarker[]): string {
  return JSON.stringify(markers);
}

/**
 * Puts a page's markers on the map while the page is shown (and clears them when it goes).
 * Pass the route's data as it is; equal content is not re-sent.
 */
export function useMapMarkers(markers: readonly MapMarker[]): void {
  const { setMarkers } = useMapContext();
  const sig = signature(markers);
  useEffect(() => {
    setMarkers(JSON.parse(sig) as MapMarker[]);
  }, [sig, setMarkers]);
  useEffect(() => () => setMarkers(EMPTY), [setMarkers]);
}

/** Zooms the map to one of the current markers, as choosing a destination in a list does. */
export function useMapFocus(): (markerId: string | null) => void {
  return useMapContext().focusMarker;
}

/** For the map column: what to show. */
export function useMapContent() {
  const { markers, focus } = useMapContext();
  return { markers, focusedId: focus?.id ?? null, focusNonce: focus?.nonce ?? 0 };
}
