import { describe, expect, it } from 'vitest';
import { toMapLibreZoom } from './constants';
import {
  boundsOf,
  clampZoom,
  densestCentre,
  fitView,
  latFromMercatorY,
  lngSpan,
  mercatorY,
  normalizeLng,
  sameView,
} from './viewport';

const size = { width: 600, height: 800 };

describe('fitView', () => {
  it('centres an empty map at 0,0 at zoom 2', () => {
    expect(fitView([], size)).toEqual({ center: { lat: 0, lng: 0 }, zoom: 2 });
  });

  it('clamps a single marker to the upper bound 6.5, centred on it', () => {
    const view = fitView([{ lat: 48.8566, lng: 2.3522 }], size);
    expect(view.zoom).toBe(6.5);
    expect(view.center.lat).toBeCloseTo(48.8566, 6);
    expect(view.center.lng).toBeCloseTo(2.3522, 6);
  });

  it('clamps markers spread over the world to the lower bound 2', () => {
    const view = fitView(
      [
        { lat: 60, lng: -120 },
        { lat: -40, lng: 150 },
        { lat: 0, lng: 10 },
      ],
      size,
    );
    expect(view.zoom).toBe(2);
  });

  it('fits markers in between to the largest zoom that shows them all', () => {
    // Paris and Rome: about 10 degrees of longitude, 7 of latitude.
    const points = [
      { lat: 48.8566, lng: 2.3522 },
      { lat: 41.9028, lng: 12.4964 },
    ];
    const view = fitView(points, size, 48);
    expect(view.zoom).toBeGreaterThan(2);
    expect(view.zoom).toBeLessThan(6.5);
    // At that zoom the box fills the padded width or height exactly (256 px world at z0).
    const world = 256 * 2 ** view.zoom;
    const widthPx = ((12.4964 - 2.3522) / 360) * world;
    const heightPx = (mercatorY(41.9028) - mercatorY(48.8566)) * world;
    expect(Math.max(widthPx / (600 - 96), heightPx / (800 - 96))).toBeCloseTo(1, 6);
    expect(view.center.lng).toBeCloseTo((2.3522 + 12.4964) / 2, 6);
    // centre latitude is the Mercator midpoint, a little north of the arithmetic one
    expect(view.center.lat).toBeGreaterThan((48.8566 + 41.9028) / 2);
  });

  it('fits a tight box across the antimeridian instead of spanning the world', () => {
    const fiji = { lat: -17.7134, lng: 178.065 };
    const samoa = { lat: -13.759, lng: -172.1046 };
    const view = fitView([fiji, samoa], size);
    expect(view.zoom).toBeGreaterThan(4);
    // centre between them, near 180, not near 0
    expect(Math.abs(view.center.lng)).toBeGreaterThan(175);
  });

  it('uses a smaller zoom for a smaller viewport', () => {
    const points = [
      { lat: 48.8566, lng: 2.3522 },
      { lat: 41.9028, lng: 12.4964 },
    ];
    expect(fitView(points, { width: 375, height: 480 }).zoom).toBeLessThan(
      fitView(points, { width: 1200, height: 900 }).zoom,
    );
  });
});

describe('fitView when the markers do not fit at the widest zoom', () => {
  // a phone's map column (375 px wide): at zoom 2 it shows about a third of the world
  const phone = { width: 375, height: 600 };
  /** Whether a point is inside the padded area of `view` on a map of `size`. */
  const inView = (p: { lat: number; lng: number }, view: ReturnType<typeof fitView>) => {
    const world = 256 * 2 ** view.zoom;
    const halfW = (phone.width - 96) / 2 / world;
    const halfH = (phone.height - 96) / 2 / world;
    const dx = Math.abs(normalizeLng(p.lng - view.center.lng)) / 360;
    const dy = Math.abs(mercatorY(p.lat) - mercatorY(view.center.lat));
    return dx <= halfW + 1e-9 && dy <= halfH + 1e-9;
  };

  it('centres on the most pins that fit, not on the middle of the world tour', () => {
    const asia = [
      { lat: 35.6762, lng: 139.6503 }, // Tokyo
      { lat: 34.6937, lng: 135.5023 }, // Osaka
      { lat: 37.5665, lng: 126.978 }, // Seoul
    ];
    const others = [
      { lat: 40.7128, lng: -74.006 }, // New York
      { lat: 51.5072, lng: -0.1276 }, // London
    ];
    const view = fitView([...others, ...asia], phone);
    expect(view.zoom).toBe(2);
    for (const city of asia) expect(inView(city, view)).toBe(true);
  });

  it('keeps a world tour that crosses the antimeridian in one view', () => {
    const pacific = [
      { lat: -17.7134, lng: 178.065 }, // Fiji
      { lat: -13.759, lng: -172.1046 }, // Samoa
      { lat: -21.1789, lng: -175.1982 }, // Tonga
    ];
    const view = fitView([{ lat: 51.5072, lng: -0.1276 }, ...pacific], phone);
    for (const island of pacific) expect(inView(island, view)).toBe(true);
    expect(Math.abs(view.center.lng)).toBeGreaterThan(170);
  });

  it('densestCentre takes each point once however wide the view', () => {
    const points = [
      { lat: 10, lng: -100 },
      { lat: 10, lng: 100 },
    ];
    const centre = densestCentre(points, 720, 1);
    expect(centre.lat).toBeCloseTo(10, 6);
  });
});

describe('bounds and helpers', () => {
  it('boundsOf takes the complement of the widest longitude gap', () => {
    expect(boundsOf([])).toBeNull();
    expect(boundsOf([{ lat: 1, lng: 10 }])).toEqual({ west: 10, south: 1, east: 10, north: 1 });
    const across = boundsOf([
      { lat: 0, lng: 170 },
      { lat: 5, lng: -170 },
    ])!;
    expect(across).toEqual({ west: 170, south: 0, east: -170, north: 5 });
    expect(lngSpan(across)).toBe(20);
    const plain = boundsOf([
      { lat: 0, lng: -10 },
      { lat: 5, lng: 20 },
    ])!;
    expect(plain).toEqual({ west: -10, south: 0, east: 20, north: 5 });
    expect(lngSpan(plain)).toBe(30);
  });

  it('clampZoom keeps zoom within [2, 6.5]', () => {
    expect(clampZoom(1)).toBe(2);
    expect(clampZoom(2)).toBe(2);
    expect(clampZoom(4.2)).toBe(4.2);
    expect(clampZoom(6.5)).toBe(6.5);
    expect(clampZoom(12)).toBe(6.5);
    expect(clampZoom(Infinity)).toBe(6.5);
    expect(clampZoom(Number.NaN)).toBe(2);
  });

  it('normalizeLng wraps into [-180, 180)', () => {
    expect(normalizeLng(190)).toBe(-170);
    expect(normalizeLng(-190)).toBe(170);
    expect(normalizeLng(180)).toBe(-180);
    expect(normalizeLng(45)).toBe(45);
  });

  it('mercator y round-trips', () => {
    for (const lat of [-80, -45, 0, 12.5, 60, 85]) {
      expect(latFromMercatorY(mercatorY(lat))).toBeCloseTo(lat, 9);
    }
    expect(mercatorY(0)).toBeCloseTo(0.5, 12);
  });

  it('sameView tolerates the antimeridian', () => {
    expect(
      sameView(
        { center: { lat: 0, lng: 179.9999999 }, zoom: 3 },
        { center: { lat: 0, lng: -180 }, zoom: 3 },
        1e-6,
      ),
    ).toBe(true);
    expect(
      sameView({ center: { lat: 0, lng: 0 }, zoom: 3 }, { center: { lat: 0, lng: 0 }, zoom: 4 }),
    ).toBe(false);
  });

  it('MapLibre zoom is one level below the spec (Google) zoom', () => {
    expect(toMapLibreZoom(2)).toBe(1);
    expect(toMapLibreZoom(6)).toBe(5);
  });
});
