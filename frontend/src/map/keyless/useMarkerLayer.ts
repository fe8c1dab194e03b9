import * as maplibregl from 'maplibre-gl';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { buildClusterIndex } from '../cluster';
import type { MapMarker } from '../types';
import type { useMarkerSelection } from '../useMarkerSelection';
import { clusterElement, itemKey, pinElement, reducedMotion } from './elements';

/** What the pins' clicks call, read when clicked (the latest markers and selection). */
type MarkerSelection = ReturnType<typeof useMarkerSelection>;

export interface PinActions {
  select: MarkerSelection['select'];
  peek: MarkerSelection['peek'];
  markers: readonly MapMarker[];
}

/**
 * The pins and clusters of `markers` at `clusterZoom` as HTML markers: a pin selects its
 * marker, a cluster zooms in (not while an info window is open); the selected pin is marked.
 */
export function useMarkerLayer(
  mapRef: RefObject<maplibregl.Map | null>,
  ready: boolean,
  markers: readonly MapMarker[],
  clusterZoom: number,
  actions: RefObject<PinActions>,
  selectedId: string | null,
): void {
  const index = useMemo(() => buildClusterIndex(markers), [markers]);
  const items = useMemo(() => index.itemsAt(clusterZoom), [index, clusterZoom]);
  const domMarkers = useRef(new Map<string, { marker: maplibregl.Marker; el: HTMLElement }>());

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    const live = domMarkers.current;
    const wanted = new Set<string>();
    for (const item of items) {
      const k = itemKey(item);
      wanted.add(k);
      const existing = live.get(k);
      if (existing) {
        if (item.type === 'marker') existing.marker.setLngLat([item.marker.lng, item.marker.lat]);
        continue;
      }
      let el: HTMLButtonElement;
      let marker: maplibregl.Marker;
      if (item.type === 'marker') {
        const id = item.marker.id;
        el = pinElement(item.marker);
        el.addEventListener('click', (event) => {
          event.stopPropagation();
          // The map swallows mousedown (no focus on click): focus the pin so closing the info
          // window can return focus to it.
          el.focus({ preventScroll: true });
          const target = actions.current.markers.find((m) => m.id === id);
          if (target) actions.current.select(target);
        });
        marker = new maplibregl.Marker({ element: el, anchor: 'bottom' }).setLngLat([
          item.marker.lng,
          item.marker.lat,
        ]);
      } else {
        const { lng, lat, expansionZoom } = item;
        el = clusterElement(item.count);
        el.addEventListener('click', (event) => {
          event.stopPropagation();
          if (actions.current.peek().state[0]) return; // gestures are off while one is open
          map.easeTo({
            center: [lng, lat],
            zoom: Math.max(expansionZoom, map.getZoom() + 1),
            duration: reducedMotion() ? 0 : 500,
          });
        });
        marker = new maplibregl.Marker({ element: el, anchor: 'center' }).setLngLat([lng, lat]);
      }
      marker.addTo(map);
      live.set(k, { marker, el });
    }
    for (const [k, entry] of live) {
      if (!wanted.has(k)) {
        entry.marker.remove();
        live.delete(k);
      }
    }
  }, [items, ready]);

  useEffect(() => {
    const live = domMarkers.current;
    return () => {
      for (const entry of live.values()) entry.marker.remove();
      live.clear();
    };
  }, []);

  // Mark the selected pin (and lift it above its neighbours).
  useEffect(() => {
    for (const [k, { el }] of domMarkers.current) {
      const isSelected = k === `m:${selectedId}`;
      el.classList.toggle('is-selected', isSelected);
      if (isSelected) el.setAttribute('aria-current', 'true');
      else el.removeAttribute('aria-current');
    }
  }, [selectedId, items]);
}
