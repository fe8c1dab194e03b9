import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { CarouselLayout } from '../carousel';
import { DEFAULT_ZOOM, fromMapLibreZoom, toMapLibreZoom } from '../constants';
import type { MapView } from '../types';
import type { SelectionCamera } from '../useMarkerSelection';
import { normalizeLng } from '../viewport';
import { infoPadding, reducedMotion } from './elements';
import { loadBasemap } from './loadBasemap';
import { darkStyle } from './style';

// MapLibre finds its worker next to its own module, which bundling moves: point it at the
// worker file Vite emits (same origin).
maplibregl.setWorkerUrl(workerUrl);

export interface MapLibreParts {
  mapRef: RefObject<maplibregl.Map | null>;
  /** The style has loaded: markers and labels may be placed. */
  ready: boolean;
  /** Why the map could not start (no WebGL...), else null. */
  failure: string | null;
  /** The integer MapLibre zoom the clusters are computed at. */
  clusterZoom: number;
  setClusterZoom: (zoom: number) => void;
}

/**
 * The MapLibre map in `containerRef` on the bundled basemap, its camera for the selection
 * (`camera`: padding beside the info window on a select), `data-camera` on the wrapper, its
 * canvas kept to the column's size, and its gestures on only while `interactive`.
 */
export function useMapLibre(
  containerRef: RefObject<HTMLDivElement | null>,
  wrapRef: RefObject<HTMLDivElement | null>,
  camera: RefObject<SelectionCamera | null>,
  layoutRef: RefObject<{ layout: CarouselLayout; size: { width: number; height: number } }>,
  size: { width: number; height: number },
  interactive: boolean,
): MapLibreParts {
  const mapRef = useRef<maplibregl.Map | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [clusterZoom, setClusterZoom] = useState(() => Math.floor(toMapLibreZoom(DEFAULT_ZOOM)));

  // ---- the map itself ----
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let map: maplibregl.Map;
    try {
      map = new maplibregl.Map({
        container,
        style: darkStyle(),
        center: [0, 0],
        zoom: toMapLibreZoom(DEFAULT_ZOOM),
        minZoom: 0,
        maxZoom: 12,
        attributionControl: false,
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
        maxPitch: 0,
        fadeDuration: 0,
        renderWorldCopies: true,
      });
    } catch (err) {
      console.error('Map could not start', err);
      setFailure('The map could not be displayed on this device.');
      return;
    }
    map.touchZoomRotate.disableRotation();
    map.keyboard.disableRotation();
    map.addControl(
      new maplibregl.NavigationControl({ showCompass: false, visualizePitch: false }),
      'top-right',
    );
    mapRef.current = map;
    camera.current = {
      getView: () => {
        const c = map.getCenter();
        return {
          center: { lat: c.lat, lng: normalizeLng(c.lng) },
          zoom: fromMapLibreZoom(map.getZoom()),
        };
      },
      moveTo: (view: MapView, reason) => {
        const { layout: l, size: s } = layoutRef.current;
        map.easeTo({
          center: [view.center.lng, view.center.lat],
          zoom: toMapLibreZoom(view.zoom),
          padding:
            reason === 'select' ? infoPadding(l, s) : { top: 0, right: 0, bottom: 0, left: 0 },
          duration: reducedMotion() ? 0 : 600,
        });
      },
    };
    const onZoom = () => setClusterZoom(Math.floor(map.getZoom()));
    map.on('zoom', onZoom);
    // `data-camera` on the wrapper: "moving" from a move's start until MapLibre's `idle` (move
    // over, last frame drawn), then "idle"; tests and screenshots wait on it, not on a delay.
    const wrap = wrapRef.current;
    map.on('movestart', () => wrap?.setAttribute('data-camera', 'moving'));
    map.on('idle', () => wrap?.setAttribute('data-camera', 'idle'));

    let cancelled = false;
    const basemap = loadBasemap();
    map.once('load', () => {
      basemap
        .then((data) => {
          if (cancelled) return;
          (map.getSource('land') as maplibregl.GeoJSONSource).setData(data.land);
          (map.getSource('borders') as maplibregl.GeoJSONSource).setData(data.borders);
          (map.getSource('coast') as maplibregl.GeoJSONSource).setData(data.coast);
        })
        .catch((err: unknown) => console.error('Basemap could not load', err));
      if (!cancelled) setReady(true);
    });

    return () => {
      cancelled = true;
      camera.current = null;
      mapRef.current = null;
      setReady(false);
      map.remove();
    };
  }, []);

  // Keep MapLibre's canvas in step with the column's size (breakpoint heights).
  useEffect(() => {
    if (size.width > 0 && size.height > 0) mapRef.current?.resize();
  }, [size.width, size.height]);

  // ---- gestures follow the second element of the selection tuple ----
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const handlers = [
      map.scrollZoom,
      map.dragPan,
      map.doubleClickZoom,
      map.touchZoomRotate,
      map.keyboard,
      map.boxZoom,
    ];
    for (const handler of handlers) {
      if (interactive) handler.enable();
      else handler.disable();
    }
    if (interactive) {
      map.touchZoomRotate.disableRotation();
      map.keyboard.disableRotation();
    }
    map.getContainer().dataset.interactive = String(interactive);
  }, [interactive, ready]);

  return { mapRef, ready, failure, clusterZoom, setClusterZoom };
}
