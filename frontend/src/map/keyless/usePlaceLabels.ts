import * as maplibregl from 'maplibre-gl';
import { useEffect, type RefObject } from 'react';
import { fromMapLibreZoom } from '../constants';
import { labelElement, labelKey } from './elements';
import { bandsFor, selectLabels, type CityBand, type MapLabel } from './labels';
import { COUNTRY_LABELS, loadCityBand } from './loadLabels';

/**
 * Country and city names as HTML markers (no glyph server offline; see README), chosen again
 * after each move: the city bands of the zoom are loaded once each, on demand.
 */
export function usePlaceLabels(mapRef: RefObject<maplibregl.Map | null>, ready: boolean): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    const shown = new Map<string, maplibregl.Marker>();
    const loaded = new Map<CityBand, MapLabel[]>();
    const requested = new Set<CityBand>();
    let cancelled = false;
    const update = () => {
      if (cancelled) return;
      const zoom = fromMapLibreZoom(map.getZoom());
      const bands = bandsFor(zoom);
      for (const band of bands) {
        if (requested.has(band)) continue;
        requested.add(band);
        loadCityBand(band)
          .then((labels) => {
            loaded.set(band, labels);
            update();
          })
          .catch((err: unknown) => {
            requested.delete(band);
            console.error('City labels could not load', err);
          });
      }
      const canvas = map.getCanvas();
      const placed = selectLabels(
        [...COUNTRY_LABELS, ...bands.flatMap((b) => loaded.get(b) ?? [])],
        {
          zoom,
          centerLng: map.getCenter().lng,
          width: canvas.clientWidth,
          height: canvas.clientHeight,
          project: (lng, lat) => map.project([lng, lat]),
        },
      );
      const keep = new Set<string>();
      for (const label of placed) {
        const k = labelKey(label);
        keep.add(k);
        const existing = shown.get(k);
        if (existing) {
          existing.setLngLat([label.shownLng, label.lat]);
          continue;
        }
        const el = labelElement(label);
        const city = label.kind === 'city';
        const marker = new maplibregl.Marker({
          element: el,
          anchor: city ? 'left' : 'center',
          offset: city ? [-5, 0] : [0, 0],
        })
          .setLngLat([label.shownLng, label.lat])
          .addTo(map);
        // right after the canvas, so every pin and cluster (added later) paints above it
        canvas.after(el);
        shown.set(k, marker);
      }
      for (const [k, marker] of shown) {
        if (!keep.has(k)) {
          marker.remove();
          shown.delete(k);
        }
      }
    };
    map.on('moveend', update);
    map.on('resize', update);
    update();
    return () => {
      cancelled = true;
      map.off('moveend', update);
      map.off('resize', update);
      for (const marker of shown.values()) marker.remove();
      shown.clear();
    };
  }, [ready]);
}
