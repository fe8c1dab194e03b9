import { describe, expect, it } from 'vitest';
import cities3 from './labels/cities-3.json';
import cities5 from './labels/cities-5.json';
import cities6 from './labels/cities-6.json';
import countries from './labels/countries.json';
import {
  bandsFor,
  cityLabels,
  countryLabels,
  MAX_LABELS,
  selectLabels,
  wrapNear,
  type CityRow,
  type CountryRow,
  type LabelView,
  type MapLabel,
} from './labels';

/** A plate carrée view centred on (lng, lat), degrees to pixels as the map's (spec) zoom scales. */
function view(zoom: number, lng: number, lat: number, width = 800, height = 600): LabelView {
  const k = (256 * 2 ** zoom) / 360;
  return {
    zoom,
    centerLng: lng,
    width,
    height,
    project: (x, y) => ({ x: width / 2 + (x - lng) * k, y: height / 2 - (y - lat) * k }),
  };
}

const city = (name: string, lng: number, lat: number, rank: number, minZoom = 3): MapLabel => ({
  kind: 'city',
  name,
  lng,
  lat,
  rank,
  minZoom,
});

describe('labels by zoom', () => {
  it('loads city bands as the zoom reaches them', () => {
    expect(bandsFor(2)).toEqual([]);
    expect(bandsFor(3)).toEqual([3]);
    expect(bandsFor(4.9)).toEqual([3]);
    expect(bandsFor(5)).toEqual([3, 5]);
    expect(bandsFor(6)).toEqual([3, 5, 6]);
    expect(bandsFor(6.5)).toEqual([3, 5, 6]);
  });

  it('shows a label only from its zoom', () => {
    const labels = [city('Big', 0, 0, 2e6, 3), city('Small', 1, 1, 6e4, 6)];
    expect(selectLabels(labels, view(3, 0, 0)).map((l) => l.name)).toEqual(['Big']);
    expect(selectLabels(labels, view(6, 0, 0)).map((l) => l.name)).toEqual(['Big', 'Small']);
  });

  it('drops labels outside the view and keeps the higher rank of two that overlap', () => {
    const labels = [
      city('Minor', 0.05, 0, 1e5),
      city('Major', 0, 0, 9e6),
      city('Far', 170, 0, 1e7),
    ];
    expect(selectLabels(labels, view(6, 0, 0)).map((l) => l.name)).toEqual(['Major']);
  });

  it('a big country wins a clash with any city; a small one loses to a big city', () => {
    const rows: CountryRow[] = [
      ['Small', 5, 0, 5],
      ['Big', 0, 0, 2],
    ];
    const labels = [
      ...countryLabels(rows),
      city('Capital', 0, 0, 2e7),
      city('Metropolis', 4.8, 0, 3e6),
    ];
    expect(selectLabels(labels, view(6, 0, 0)).map((l) => l.name)).toEqual(['Big', 'Metropolis']);
  });

  it('places a label on the world copy nearest the centre', () => {
    expect(wrapNear(-170, 175)).toBe(190);
    expect(wrapNear(170, -175)).toBe(-190);
    expect(wrapNear(10, 0)).toBe(10);
    const [fiji] = selectLabels([city('Suva', 178.44, -18.14, 2e6)], view(6, -178, -18));
    expect(fiji?.shownLng).toBeCloseTo(178.44 - 360, 6);
  });

  it('never shows more than the cap', () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      city(`C${i}`, (i % 25) * 0.3 - 3.6, Math.floor(i / 25) * 0.3 - 2.8, i),
    );
    expect(selectLabels(many, view(6, 0, 0, 4000, 4000))).toHaveLength(MAX_LABELS);
  });
});

describe('the bundled label data', () => {
  const all = [
    ...countryLabels(countries as CountryRow[]),
    ...cityLabels(3, cities3 as CityRow[]),
    ...cityLabels(5, cities5 as CityRow[]),
    ...cityLabels(6, cities6 as CityRow[]),
  ];
  const shown = (zoom: number, lng: number, lat: number) => selectLabels(all, view(zoom, lng, lat));
  const near = (zoom: number, lng: number, lat: number) => shown(zoom, lng, lat).map((l) => l.name);

  it('has a label point inside each country it names (a few checked)', () => {
    const at = (name: string) => (countries as CountryRow[]).find((c) => c[0] === name)!;
    const [, ptLng, ptLat] = at('Portugal');
    expect(ptLng).toBeGreaterThan(-9.5);
    expect(ptLng).toBeLessThan(-6.2);
    expect(ptLat).toBeGreaterThan(37);
    expect(ptLat).toBeLessThan(42);
    expect(at('France')[3]).toBeLessThan(at('Luxembourg')[3]);
  });

  it('zoom 3 over Europe: capitals and big cities only; zoom 6 near Lisbon adds smaller ones', () => {
    const z3cities = shown(3, 10, 48).filter((l) => l.kind === 'city');
    expect(z3cities.length).toBeGreaterThanOrEqual(5);
    expect(z3cities.every((l) => l.minZoom === 3)).toBe(true);
    expect(z3cities.map((l) => l.name)).toContain('Moscow');
    const z6 = near(6, -9.14, 38.72);
    expect(z6).toContain('Lisbon');
    expect(z6).toContain('Portugal');
    expect(z6).toContain('Coimbra');
    expect(z6).not.toContain('Paris'); // out of view at zoom 6
  });
});
