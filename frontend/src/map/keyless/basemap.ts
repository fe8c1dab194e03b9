import type {
  Feature,
  FeatureCollection,
  LineString,
  MultiLineString,
  MultiPolygon,
  Polygon,
  Position,
} from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * Turns world-atlas's countries TopoJSON into flat-map GeoJSON for the keyless basemap.
 *
 * world-atlas is stitched for spherical projections: rings of Fiji and Chukotka (Russia) jump
 * straight from longitude ~180 to ~-180, and Antarctica's ring runs once around the South Pole.
 * Drawn as-is on a flat (Mercator) map, those jumps become straight lines across the whole
 * world and Antarctica's fill goes wrong. So every ring and line is "unwrapped" (longitudes
 * made continuous, e.g. 179.8 -> 180.2 instead of -179.8; the renderer wraps the part beyond
 * 180 to the other side), and a ring that still goes once around a pole is closed along that
 * pole.
 */

/** Makes a path's longitudes continuous: no step between neighbours is larger than 180°. */
export function unwrapPath(path: readonly Position[]): Position[] {
  const out: Position[] = [];
  let offset = 0;
  let previous: number | null = null;
  for (const [lng = 0, lat = 0] of path) {
    if (previous !== null) {
      const step = lng + offset - previous;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    const x = lng + offset;
    out.push([x, lat]);
    previous = x;
  }
  return out;
}

/** The largest longitude step between neighbouring points (a stray-line detector). */
export function maxLongitudeStep(path: readonly Position[]): number {
  let max = 0;
  for (let i = 1; i < path.length; i++) {
    max = Math.max(max, Math.abs((path[i]![0] ?? 0) - (path[i - 1]![0] ?? 0)));
  }
  return max;
}

/**
 * A ring that goes once around a pole, cut open at the antimeridian and closed along the pole,
 * so every longitude stays within [-180, 180] (no wrapping needed by the renderer). Null when
 * the ring does not cross the antimeridian exactly once.
 */
function cutPolarRing(ring: readonly Position[], poleLat: number): Position[] | null {
  const open = ring.slice(0, -1);
  const n = open.length;
  const crossings: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = open[i]![0] ?? 0;
    const b = open[(i + 1) % n]![0] ?? 0;
    if (Math.abs(b - a) > 180) crossings.push(i);
  }
  if (crossings.length !== 1) return null;
  const i = crossings[0]!;
  const p = open[i]!;
  const q = open[(i + 1) % n]!;
  const [px = 0, py = 0] = p;
  const [qx = 0, qy = 0] = q;
  const edgeP = px >= 0 ? 180 : -180;
  const qUnwrapped = qx + (edgeP > 0 ? 360 : -360);
  const t = (edgeP - px) / (qUnwrapped - px);
  const latX = py + t * (qy - py);
  const rotated = [...open.slice(i + 1), ...open.slice(0, i + 1)];
  const edgeQ = -edgeP;
  return [
    [edgeQ, latX],
    ...rotated.map(([x = 0, y = 0]) => [x, y]),
    [edgeP, latX],
    [edgeP, poleLat],
    [edgeQ, poleLat],
    [edgeQ, latX],
  ];
}

/**
 * A closed ring made safe for a flat map: a ring around a pole (its unwrapped longitude drifts
 * by a full turn) is cut at the antimeridian and closed along the pole; any other ring is
 * unwrapped, so an island group across the antimeridian stays in one piece.
 */
export function fixRing(ring: readonly Position[]): Position[] {
  const unwrapped = unwrapPath(ring);
  const first = unwrapped[0];
  const last = unwrapped[unwrapped.length - 1];
  if (!first || !last) return unwrapped;
  const drift = (last[0] ?? 0) - (first[0] ?? 0);
  if (Math.abs(drift) < 180) return unwrapped;
  // Circles a pole: which one is told by the ring's mean latitude.
  const meanLat = unwrapped.reduce((sum, p) => sum + (p[1] ?? 0), 0) / unwrapped.length;
  const poleLat = meanLat < 0 ? -90 : 90;
  const cut = cutPolarRing(ring, poleLat);
  if (cut) return cut;
  const open = unwrapped.slice(0, -1);
  return [
    ...open,
    [last[0] ?? 0, poleLat],
    [first[0] ?? 0, poleLat],
    [first[0] ?? 0, first[1] ?? 0],
  ];
}

/** Whether a closed ring goes once around a pole (its unwrapped longitude drifts a full turn). */
export function circlesPole(ring: readonly Position[]): boolean {
  const unwrapped = unwrapPath(ring);
  const first = unwrapped[0];
  const last = unwrapped[unwrapped.length - 1];
  return !!first && !!last && Math.abs((last[0] ?? 0) - (first[0] ?? 0)) >= 180;
}

const meanAbsLat = (ring: readonly Position[]) =>
  ring.reduce((sum, p) => sum + Math.abs(p[1] ?? 0), 0) / Math.max(1, ring.length);

/**
 * One polygon's rings for a flat map. On the sphere, Antarctica is the area between a ring
 * hugging the pole (at -89.999) and its coast, both circling the pole, the coast being the
 * "hole". Flat, each polar ring closed along the pole encloses the area between it and the
 * pole, so the ring furthest from the pole becomes the outer ring, the others its holes, and
 * rings that only hug the pole (nothing to see in Web Mercator) are dropped.
 */
export function fixPolygonRings(rings: readonly (readonly Position[])[]): Position[][] {
  const polar = rings.filter(circlesPole);
  if (polar.length === 0) return rings.map(fixRing);
  const others = rings.filter((ring) => !circlesPole(ring));
  const visible = polar
    .filter((ring) => ring.some((p) => Math.abs(p[1] ?? 0) < 89.9))
    .sort((a, b) => meanAbsLat(a) - meanAbsLat(b));
  if (visible.length === 0) return [];
  return [...visible, ...others].map(fixRing);
}

export function fixPolygon(geometry: Polygon | MultiPolygon): Polygon | MultiPolygon {
  if (geometry.type === 'Polygon') {
    return { type: 'Polygon', coordinates: fixPolygonRings(geometry.coordinates) };
  }
  return {
    type: 'MultiPolygon',
    coordinates: geometry.coordinates.map(fixPolygonRings).filter((rings) => rings.length > 0),
  };
}

export function fixLines(geometry: LineString | MultiLineString): MultiLineString {
  const lines = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
  return { type: 'MultiLineString', coordinates: lines.map(unwrapPath) };
}

export interface Basemap {
  land: FeatureCollection<Polygon | MultiPolygon>;
  /** Borders between two countries. */
  borders: FeatureCollection<MultiLineString>;
  /** Coastlines (arcs of one country only), drawn as lines so no pole closure is outlined. */
  coast: FeatureCollection<MultiLineString>;
}

type CountriesTopology = Topology<{ countries: GeometryCollection; land?: GeometryCollection }>;

/** Land (country shapes) and inner borders from world-atlas `countries-*.json`. */
export function basemapFromTopology(topology: CountriesTopology): Basemap {
  const countries = topology.objects.countries;
  const collection = feature(topology, countries) as FeatureCollection<
    Polygon | MultiPolygon | null
  >;
  const land: Feature<Polygon | MultiPolygon>[] = [];
  for (const country of collection.features) {
    if (!country.geometry) continue;
    land.push({
      type: 'Feature',
      id: country.id,
      properties: {},
      geometry: fixPolygon(country.geometry),
    });
  }
  const lines = (
    filter: (a: unknown, b: unknown) => boolean,
  ): FeatureCollection<MultiLineString> => ({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: {},
        geometry: fixLines(mesh(topology, countries, filter) as MultiLineString),
      },
    ],
  });
  return {
    land: { type: 'FeatureCollection', features: land },
    borders: lines((a, b) => a !== b),
    coast: lines((a, b) => a === b),
  };
}
