import { polygonCode } from '@wayfarer/atlas/codes';
import type { FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fixPolygonRings } from '../map/keyless/basemap';

/**
 * The atlas map's countries as SVG paths: world-atlas's outlines (the 1:50m file the keyless map
 * already ships, `loadWorldShapes`), each polygon coded ISO 3166-1 alpha-2 by the atlas
 * package's own rule (`@wayfarer/atlas/codes`, the table the server's lookup uses, so the map
 * fills exactly the codes `GET /api/stats` answers: French Guiana is GF, Crimea UA), then
 * projected with Equal Earth. One path per code.
 */

export interface CountryShape {
  /** Alpha-2 code, or '' for an outline no country owns. */
  code: string;
  /** SVG path data in the map's coordinates (`WORLD_VIEWBOX`). */
  d: string;
}

const A1 = 1.340264;
const A2 = -0.081106;
const A3 = 0.000893;
const A4 = 0.003796;
const M = Math.sqrt(3) / 2;
const SCALE = 100;
const RAD = Math.PI / 180;

/** Equal Earth (Šavrič, Patterson, Jenny 2018): longitude, latitude in degrees to x, y (y down). */
export function equalEarth(longitude: number, latitude: number): [number, number] {
  const lambda = Math.max(-180, Math.min(180, longitude)) * RAD;
  const theta = Math.asin(M * Math.sin(latitude * RAD));
  const t2 = theta * theta;
  const t6 = t2 * t2 * t2;
  const x = (lambda * Math.cos(theta)) / (M * (A1 + 3 * A2 * t2 + t6 * (7 * A3 + 9 * A4 * t2)));
  const y = theta * (A1 + A2 * t2 + t6 * (A3 + A4 * t2));
  return [x * SCALE, -y * SCALE];
}

const [EDGE_X] = equalEarth(180, 0);
const [, TOP] = equalEarth(0, 84);
const [, BOTTOM] = equalEarth(0, -60);

/** The drawn frame: the whole width, latitude 84° N to 60° S (Antarctica left out). */
export const WORLD_VIEWBOX = [-EDGE_X, TOP, 2 * EDGE_X, BOTTOM - TOP]
  .map((n) => n.toFixed(1))
  .join(' ');

/** One ring as path data, points rounded to 0.1 units (about 0.07°), repeats dropped. */
export function ringPath(ring: readonly Position[]): string {
  let d = '';
  let last = '';
  for (const [lng = 0, lat = 0] of ring) {
    const [x, y] = equalEarth(lng, lat);
    const point = `${x.toFixed(1)} ${y.toFixed(1)}`;
    if (point === last) continue;
    d += `${d ? 'L' : 'M'}${point}`;
    last = point;
  }
  return d ? `${d}Z` : '';
}

type CountriesTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

/** Every country's path from a world-atlas countries topology. */
export function shapesFromTopology(topology: CountriesTopology): CountryShape[] {
  const collection = feature(topology, topology.objects.countries) as FeatureCollection<
    Polygon | MultiPolygon | null,
    { name: string }
  >;
  const paths = new Map<string, string>();
  for (const country of collection.features) {
    const geometry = country.geometry;
    if (!geometry) continue;
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const rings of polygons) {
      const code = polygonCode(country.id, country.properties.name, rings[0]?.[0] ?? [0, 0]) ?? '';
      const d = fixPolygonRings(rings).map(ringPath).join('');
      if (d) paths.set(code, (paths.get(code) ?? '') + d);
    }
  }
  return [...paths].map(([code, d]) => ({ code, d }));
}
