import { EMPTY_CENTER, EMPTY_ZOOM, FIT_PADDING, MAX_FIT_ZOOM, MIN_FIT_ZOOM } from './constants';
import type { LatLng, MapView } from './types';

/** Web Mercator's latitude limit: the square world. */
export const MAX_MERCATOR_LAT = 85.0511287798066;

/** The world is 256 px wide at zoom 0 in spec units (the Google Maps scale). */
const TILE = 256;

/**
 * Bounds of a set of points. When the points sit on both sides of the antimeridian and the
 * shortest box crosses it, `west > east` (e.g. west 170, east -170 for Fiji and Samoa).
 */
export interface LngLatBounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

export function clampZoom(zoom: number, min = MIN_FIT_ZOOM, max = MAX_FIT_ZOOM): number {
  if (Number.isNaN(zoom)) return min;
  return Math.min(max, Math.max(min, zoom));
}

/** Longitude into [-180, 180). */
export function normalizeLng(lng: number): number {
  const wrapped = (((lng + 180) % 360) + 360) % 360;
  return wrapped - 180;
}

/**
 * The smallest box holding every point. Longitudes are treated as a circle: the box is the
 * complement of the widest empty gap between neighbouring longitudes, so two pins either side
 * of the antimeridian give a narrow box across it, not one spanning the whole world.
 */
export function boundsOf(points: readonly LatLng[]): LngLatBounds | null {
  if (points.length === 0) return null;
  let south = Infinity;
  let north = -Infinity;
  for (const p of points) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
  }
  const lngs = [...new Set(points.map((p) => normalizeLng(p.lng)))].sort((a, b) => a - b);
  const first = lngs[0]!;
  const last = lngs[lngs.length - 1]!;
  // The gap that wraps around the antimeridian, from the last longitude to the first.
  let widestGap = first + 360 - last;
  let west = first;
  let east = last;
  for (let i = 0; i < lngs.length - 1; i++) {
    const gap = lngs[i + 1]! - lngs[i]!;
    if (gap > widestGap) {
      widestGap = gap;
      west = lngs[i + 1]!;
      east = lngs[i]!;
    }
  }
  return { west, south, east, north };
}

/** Longitude span of a box in degrees, across the antimeridian when west > east. */
export function lngSpan(bounds: LngLatBounds): number {
  return bounds.west <= bounds.east ? bounds.east - bounds.west : bounds.east + 360 - bounds.west;
}

/** Mercator y in [0, 1] (0 at the top) for a latitude. */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

export function latFromMercatorY(y: number): number {
  const n = Math.PI - 2 * Math.PI * y;
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

export interface ViewportSize {
  width: number;
  height: number;
}

/**
 * The view for a set of markers: with none, centre 0,0 at zoom 2; with some,
 * fit their bounds inside the viewport (less padding), then clamp the zoom to [2, 6.5]. A single
 * marker (a zero-size box) fits at any zoom, so it lands on the upper clamp, 6.5.
 */
export function fitView(
  points: readonly LatLng[],
  size: ViewportSize,
  padding = FIT_PADDING,
): MapView {
  const bounds = boundsOf(points);
  if (!bounds) return { center: { ...EMPTY_CENTER }, zoom: EMPTY_ZOOM };

  const span = lngSpan(bounds);
  const yTop = mercatorY(bounds.north);
  const yBottom = mercatorY(bounds.south);
  const dx = span / 360;
  const dy = yBottom - yTop;

  // Keep at least a quarter of the viewport for the padding-free area on tiny maps.
  const padX = Math.min(padding, size.width / 4);
  const padY = Math.min(padding, size.height / 4);
  const availW = Math.max(1, size.width - 2 * padX);
  const availH = Math.max(1, size.height - 2 * padY);
  const zoomX = dx > 0 ? Math.log2(availW / (TILE * dx)) : Infinity;
  const zoomY = dy > 0 ? Math.log2(availH / (TILE * dy)) : Infinity;

  const fitZoom = Math.min(zoomX, zoomY);
  const zoom = clampZoom(fitZoom);
  if (fitZoom < zoom) {
    // They do not all fit even at the widest zoom (a world tour on a phone): centre on the
    // most pins that do, rather than on the middle of a box that may hold none.
    const world = TILE * 2 ** zoom;
    return { center: densestCentre(points, (360 * availW) / world, availH / world), zoom };
  }
  const center = {
    lat: latFromMercatorY((yTop + yBottom) / 2),
    lng: normalizeLng(bounds.west + span / 2),
  };
  return { center, zoom };
}

/** The widest run of sorted values within `width` (their first and one-past-last index). */
function densestRun(values: readonly number[], width: number): [number, number] {
  let best: [number, number] = [0, 1];
  let end = 0;
  for (let start = 0; start < values.length; start++) {
    end = Math.max(end, start + 1);
    while (end < values.length && values[end]! - values[start]! <= width) end++;
    if (end - start > best[1] - best[0]) best = [start, end];
  }
  return best;
}

/**
 * The centre of a view `lngWidth` degrees wide and `yHeight` (Mercator y, the world 1 high)
 * tall that holds the most points: the densest run of longitudes (on the circle: each point
 * also once more 360 degrees east), then of those points the densest run of heights. The
 * centre is the middle of the points kept, so they sit inside the view.
 */
export function densestCentre(
  points: readonly LatLng[],
  lngWidth: number,
  yHeight: number,
): LatLng {
  const byLng = points
    .map((p) => ({ lng: normalizeLng(p.lng), y: mercatorY(p.lat) }))
    .sort((a, b) => a.lng - b.lng);
  const circle = [...byLng, ...byLng.map((p) => ({ lng: p.lng + 360, y: p.y }))];
  const [lngStart, lngEnd] = densestRun(
    circle.map((p) => p.lng),
    lngWidth,
  );
  // at most every point once: a window as wide as the world would take some twice
  const inLng = circle.slice(lngStart, Math.min(lngEnd, lngStart + byLng.length));
  const byY = [...inLng].sort((a, b) => a.y - b.y);
  const [yStart, yEnd] = densestRun(
    byY.map((p) => p.y),
    yHeight,
  );
  const kept = byY.slice(yStart, yEnd);
  const lngs = kept.map((p) => p.lng);
  const ys = kept.map((p) => p.y);
  return {
    lat: latFromMercatorY((Math.min(...ys) + Math.max(...ys)) / 2),
    lng: normalizeLng((Math.min(...lngs) + Math.max(...lngs)) / 2),
  };
}

/** Two views are the same within a small tolerance (for tests and for skipping no-op moves). */
export function sameView(a: MapView, b: MapView, tolerance = 1e-6): boolean {
  return (
    Math.abs(a.zoom - b.zoom) <= tolerance &&
    Math.abs(a.center.lat - b.center.lat) <= tolerance &&
    Math.abs(normalizeLng(a.center.lng - b.center.lng + 180) - 180) <= tolerance
  );
}

/** A key that changes only when the set of marker positions changes (to decide when to refit). */
export function markersKey(markers: readonly (LatLng & { id: string })[]): string {
  return markers.map((m) => `${m.id}@${m.lat.toFixed(6)},${m.lng.toFixed(6)}`).join('|');
}
