/**
 * The keyless basemap's place names: country names from a label point per country and city
 * names by zoom band (data in `labels/`, generated offline by `build/gen-map-labels.mjs`).
 * Labels are HTML markers, so this module decides which ones show: those whose band the zoom
 * has reached, inside the view, most important first, none overlapping, at most `max`.
 * Zooms here are spec (Google) zooms.
 */

/** A country row of `labels/countries.json`: name, longitude, latitude, spec zoom it shows from. */
export type CountryRow = [name: string, lng: number, lat: number, minZoom: number];
/** A city row of `labels/cities-<zoom>.json`: name, longitude, latitude, rank (population, +3M for a capital). */
export type CityRow = [name: string, lng: number, lat: number, rank: number];

/**
 * City bands: the spec zoom a band shows from and what it holds (capitals and cities of at
 * least a million from 3, 300k from 5, 50k from 6). Each band is its own lazily loaded file;
 * keep in step with `build/gen-map-labels.mjs`.
 */
export const CITY_BANDS = [
  { zoom: 3, minPopulation: 1_000_000, capitals: true },
  { zoom: 5, minPopulation: 300_000, capitals: false },
  { zoom: 6, minPopulation: 50_000, capitals: false },
] as const;

export type CityBand = (typeof CITY_BANDS)[number]['zoom'];

/** Most labels on screen at once (DOM elements stay few). */
export const MAX_LABELS = 80;

export interface MapLabel {
  kind: 'country' | 'city';
  name: string;
  lng: number;
  lat: number;
  minZoom: number;
  /** Larger shows first when two would overlap. */
  rank: number;
}

/**
 * A country's rank against cities' (population, capitals + 3 million): the biggest countries
 * (shown from zoom 2) win every clash; a smaller one ranks as a city, smaller as it shows later.
 */
const COUNTRY_RANK: Record<number, number> = { 2: 1e12, 3: 2e7, 4: 4e6, 5: 1e6, 6: 2e5 };

export function countryLabels(rows: readonly CountryRow[]): MapLabel[] {
  return rows.map(([name, lng, lat, minZoom]) => ({
    kind: 'country',
    name,
    lng,
    lat,
    minZoom,
    rank: COUNTRY_RANK[minZoom] ?? 2e5,
  }));
}

export function cityLabels(band: CityBand, rows: readonly CityRow[]): MapLabel[] {
  return rows.map(([name, lng, lat, rank]) => ({
    kind: 'city',
    name,
    lng,
    lat,
    minZoom: band,
    rank,
  }));
}

/** The city bands whose data a view at `zoom` needs. */
export function bandsFor(zoom: number): CityBand[] {
  return CITY_BANDS.filter((b) => zoom >= b.zoom).map((b) => b.zoom);
}

/** The copy of `lng` (± whole turns) nearest to `centerLng`, for maps showing world copies. */
export function wrapNear(lng: number, centerLng: number): number {
  return lng + 360 * Math.round((centerLng - lng) / 360);
}

export interface LabelView {
  zoom: number;
  centerLng: number;
  width: number;
  height: number;
  /** Screen position (px from the map's top left) of a longitude/latitude. */
  project: (lng: number, lat: number) => { x: number; y: number };
}

/** Approximate screen box of a label (px), for the overlap test. */
export function labelBox(label: MapLabel): { width: number; height: number } {
  return label.kind === 'country'
    ? { width: label.name.length * 7.5 + 8, height: 16 }
    : { width: label.name.length * 6.6 + 14, height: 15 };
}

export interface PlacedLabel extends MapLabel {
  /** The longitude of the copy nearest the view's centre (where the marker goes). */
  shownLng: number;
}

/**
 * The labels to show: reached by the zoom, inside the view, by rank, none overlapping another
 * (boxes from `labelBox`, cities anchored at their left, countries centred), at most `max`.
 */
export function selectLabels(
  labels: readonly MapLabel[],
  view: LabelView,
  max: number = MAX_LABELS,
): PlacedLabel[] {
  const candidates = labels
    .filter((l) => view.zoom >= l.minZoom)
    .sort((a, b) => b.rank - a.rank || a.name.localeCompare(b.name));
  const taken: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const out: PlacedLabel[] = [];
  for (const label of candidates) {
    if (out.length >= max) break;
    const shownLng = wrapNear(label.lng, view.centerLng);
    const { x, y } = view.project(shownLng, label.lat);
    const { width, height } = labelBox(label);
    const x0 = label.kind === 'city' ? x - 5 : x - width / 2;
    const box = { x0, y0: y - height / 2, x1: x0 + width, y1: y + height / 2 };
    if (box.x0 < 0 || box.y0 < 0 || box.x1 > view.width || box.y1 > view.height) continue;
    if (taken.some((t) => box.x0 < t.x1 && t.x0 < box.x1 && box.y0 < t.y1 && t.y0 < box.y1)) {
      continue;
    }
    taken.push(box);
    out.push({ ...label, shownLng });
  }
  return out;
}
