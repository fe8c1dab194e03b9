import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { carouselLayout, type CarouselLayout } from '../carousel';
import { buildClusterIndex, type ClusterItem } from '../cluster';
import { DEFAULT_ZOOM, fromMapLibreZoom, toMapLibreZoom } from '../constants';
import { InfoWindow } from '../InfoWindow';
import { PIN_KIND_LABEL, pinSvg } from '../pin';
import type { MapProviderProps } from '../providerApi';
import { focusView } from '../selection';
import { markerTitle, type MapHandle, type MapMarker, type MapView } from '../types';
import { useElementSize } from '../useElementSize';
import { useMarkerSelection, type SelectionCamera } from '../useMarkerSelection';
import { useWindowWidth } from '../useWindowWidth';
import { fitView, markersKey, normalizeLng } from '../viewport';
import { bandsFor, selectLabels, type CityBand, type MapLabel, type PlacedLabel } from './labels';
import { loadBasemap } from './loadBasemap';
import { COUNTRY_LABELS, loadCityBand } from './loadLabels';
import { darkStyle } from './style';
import '../../styles/map.css';

// MapLibre finds its worker next to its own module, which bundling moves: point it at the
// worker file Vite emits (same origin).
maplibregl.setWorkerUrl(workerUrl);

/** Height (px) of map kept visible above the mobile info sheet, where the selected pin sits. */
const SHEET_PEEK = 84;
/** Gap between the docked info window and the map's edges. */
const DOCK_GAP = 12;

const reducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Map padding that keeps the selected pin visible beside (or above) the info window. */
function infoPadding(layout: CarouselLayout, map: { width: number; height: number }) {
  const none = { top: 0, right: 0, bottom: 0, left: 0 };
  if (layout.mode === 'mobile') {
    return { ...none, bottom: Math.max(0, map.height - SHEET_PEEK) };
  }
  const panel = layout.width + 28 + 2 * DOCK_GAP;
  return map.width - panel >= 60 ? { ...none, left: panel } : none;
}

function itemKey(item: ClusterItem): string {
  return item.type === 'marker'
    ? `m:${item.marker.id}`
    : `c:${[...item.markerIds].sort().join(',')}`;
}

function pinElement(marker: MapMarker): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = `map-pin map-pin--${marker.kind}`;
  el.dataset.markerId = marker.id;
  el.dataset.kind = marker.kind;
  el.setAttribute('aria-label', `${markerTitle(marker)} (${PIN_KIND_LABEL[marker.kind]})`);
  el.innerHTML = pinSvg(marker.kind);
  return el;
}

function clusterElement(count: number): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = 'map-cluster';
  el.dataset.count = String(count);
  el.setAttribute('aria-label', `${count} places here: zoom in`);
  el.textContent = String(count);
  return el;
}

const labelKey = (l: MapLabel) => `${l.kind}:${l.name}:${l.lng}:${l.lat}`;

function labelElement(label: PlacedLabel): HTMLElement {
  const el = document.createElement('div');
  el.className = `map-label map-label--${label.kind}`;
  el.dataset.label = label.name;
  el.setAttribute('aria-hidden', 'true');
  el.textContent = label.name;
  return el;
}

/** The keyless provider: MapLibre GL on a bundled dark world basemap, no network at all. */
export default function KeylessMap({
  markers,
  user,
  focusedId,
  focusNonce,
  onReady,
  onSelectionChange,
  renderJournal,
  renderItinerary,
}: MapProviderProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [clusterZoom, setClusterZoom] = useState(() => Math.floor(toMapLibreZoom(DEFAULT_ZOOM)));
  const size = useElementSize(wrapRef);
  const windowWidth = useWindowWidth();
  const layout = carouselLayout(windowWidth, size);
  const layoutRef = useRef({ layout, size });
  layoutRef.current = { layout, size };

  const camera = useRef<SelectionCamera | null>(null);
  const { selected, interactive, select, close, peek } = useMarkerSelection(
    camera,
    markers,
    onSelectionChange,
  );

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

  // ---- fit to the markers (only when the set of positions changes) ----
  const key = markersKey(markers);
  const fittedKey = useRef<string | null>(null);
  const hasSize = size.width > 0 && size.height > 0;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !hasSize || fittedKey.current === key) return;
    fittedKey.current = key;
    if (peek().state[0]) return; // an open info window keeps its view
    const { size: s } = layoutRef.current;
    const view = fitView(markers, s);
    map.jumpTo({
      center: [view.center.lng, view.center.lat],
      zoom: toMapLibreZoom(view.zoom),
      padding: { top: 0, right: 0, bottom: 0, left: 0 },
    });
    setClusterZoom(Math.floor(map.getZoom()));
  }, [key, ready, hasSize, peek]);

  // ---- focus from a list ----
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !focusedId || peek().state[0]) return;
    const marker = markers.find((m) => m.id === focusedId);
    if (!marker) return;
    const view = focusView(marker);
    map.flyTo({
      center: [view.center.lng, view.center.lat],
      zoom: toMapLibreZoom(view.zoom),
      duration: reducedMotion() ? 0 : 900,
    });
  }, [focusedId, focusNonce, ready]);

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

  // ---- place names as HTML markers (no glyph server offline; see README) ----
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

  // ---- pins and clusters as HTML markers ----
  const index = useMemo(() => buildClusterIndex(markers), [markers]);
  const items = useMemo(() => index.itemsAt(clusterZoom), [index, clusterZoom]);
  const domMarkers = useRef(new Map<string, { marker: maplibregl.Marker; el: HTMLElement }>());
  const actions = useRef({ select, peek, markers });
  actions.current = { select, peek, markers };

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
  const selectedId = selected?.id ?? null;
  useEffect(() => {
    for (const [k, { el }] of domMarkers.current) {
      const isSelected = k === `m:${selectedId}`;
      el.classList.toggle('is-selected', isSelected);
      if (isSelected) el.setAttribute('aria-current', 'true');
      else el.removeAttribute('aria-current');
    }
  }, [selectedId, items]);

  // ---- the handle for screens and tests ----
  const handleClose = useCallback(() => close(), [close]);
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

  const sheet = layout.mode === 'mobile';
  return (
    <div ref={wrapRef} className="keyless-map" data-provider="keyless" data-ready={ready}>
      <div ref={containerRef} className="keyless-canvas" />
      {selected ? (
        <div className={`map-info-layer map-info-layer--${sheet ? 'sheet' : 'docked'}`}>
          <InfoWindow
            marker={selected}
            user={user}
            layout={layout}
            onClose={handleClose}
            renderJournal={renderJournal}
            renderItinerary={renderItinerary}
          />
        </div>
      ) : null}
      {failure ? (
        <p className="map-status map-status--error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
