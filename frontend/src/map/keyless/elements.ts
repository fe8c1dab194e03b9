import type { CarouselLayout } from '../carousel';
import type { ClusterItem } from '../cluster';
import { PIN_KIND_LABEL, pinSvg } from '../pin';
import { markerTitle, type MapMarker } from '../types';
import type { MapLabel, PlacedLabel } from './labels';

/*
 * The keyless map's HTML markers (pins, clusters, place names) and the camera's padding: plain
 * DOM, built here so the map's hooks only place them.
 */

/** Height (px) of map kept visible above the mobile info sheet, where the selected pin sits. */
const SHEET_PEEK = 84;
/** Gap between the docked info window and the map's edges. */
const DOCK_GAP = 12;

export const reducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Map padding that keeps the selected pin visible beside (or above) the info window. */
export function infoPadding(layout: CarouselLayout, map: { width: number; height: number }) {
  const none = { top: 0, right: 0, bottom: 0, left: 0 };
  if (layout.mode === 'mobile') {
    return { ...none, bottom: Math.max(0, map.height - SHEET_PEEK) };
  }
  const panel = layout.width + 28 + 2 * DOCK_GAP;
  return map.width - panel >= 60 ? { ...none, left: panel } : none;
}

export function itemKey(item: ClusterItem): string {
  return item.type === 'marker'
    ? `m:${item.marker.id}`
    : `c:${[...item.markerIds].sort().join(',')}`;
}

export function pinElement(marker: MapMarker): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = `map-pin map-pin--${marker.kind}`;
  el.dataset.markerId = marker.id;
  el.dataset.kind = marker.kind;
  el.setAttribute('aria-label', `${markerTitle(marker)} (${PIN_KIND_LABEL[marker.kind]})`);
  el.innerHTML = pinSvg(marker.kind);
  return el;
}

export function clusterElement(count: number): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = 'map-cluster';
  el.dataset.count = String(count);
  el.setAttribute('aria-label', `${count} places here: zoom in`);
  el.textContent = String(count);
  return el;
}

export const labelKey = (l: MapLabel) => `${l.kind}:${l.name}:${l.lng}:${l.lat}`;

export function labelElement(label: PlacedLabel): HTMLElement {
  const el = document.createElement('div');
  el.className = `map-label map-label--${label.kind}`;
  el.dataset.label = label.name;
  el.setAttribute('aria-hidden', 'true');
  el.textContent = label.name;
  return el;
}
