import type * as maplibregl from 'maplibre-gl';
import { useEffect, type RefObject } from 'react';
import { fromMapLibreZoom, toMapLibreZoom } from '../constants';
import { focusView } from '../selection';
import type { MapHandle } from '../types';
import { normalizeLng } from '../viewport';
import { reducedMotion } from './elements';
import type { PinActions } from './useMarkerLayer';

/** The map's handle for screens and tests (`onReady`), given once the map is ready. */
export function useKeylessHandle(
  mapRef: RefObject<maplibregl.Map | null>,
  ready: boolean,
  actions: RefObject<PinActions>,
  onReady: ((handle: MapHandle | null) => void) | undefined,
  handleClose: () => void,
): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !onReady) return;
    const handle: MapHandle = {
      provider: 'keyless',
      getZoom: () => fromMapLibreZoom(map.getZoom()),
      getCenter: () => {
        const c = map.getCenter();
        return { lat: c.lat, lng: normalizeLng(c.lng) };
      },
      focus: (id) => {
        const marker = actions.current.markers.find((m) => m.id === id);
        if (!marker || actions.current.peek().state[0]) return false;
        const view = focusView(marker);
        map.flyTo({
          center: [view.center.lng, view.center.lat],
          zoom: toMapLibreZoom(view.zoom),
          duration: reducedMotion() ? 0 : 900,
        });
        return true;
      },
      select: (id) => {
        const marker = actions.current.markers.find((m) => m.id === id);
        return marker ? actions.current.select(marker) : false;
      },
      setView: (view) => {
        map.jumpTo({
          center: [view.center.lng, view.center.lat],
          zoom: toMapLibreZoom(view.zoom),
          padding: { top: 0, right: 0, bottom: 0, left: 0 },
        });
      },
      close: handleClose,
      isInteractive: () => actions.current.peek().state[1],
    };
    onReady(handle);
    return () => onReady(null);
  }, [ready, onReady, handleClose]);
}
