import type { MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Polygon as TopoPolygon, Topology } from 'topojson-specification';
import { polygonCode } from './codes';
import { KM_PER_DEGREE, wrapLongitude } from './geo';
import { buildShape, edgeDistanceKm, holds, type Shape } from './shapes';

/**
 * Country lookup by point in polygon over world-atlas's country outlines (TopoJSON), with a
 * rule for points just off a coast. Geometry is planar in longitude/latitude (the outlines are
 * dense enough: at 1:50m a vertex every few km), with two fixes for world-atlas's spherical
 * stitching:
 * - rings crossing the antimeridian (Fiji, Chukotka) are unwrapped: longitudes made continuous
 *   (179.8 -> 180.2), and a point is tested at its longitude shifted by 360° into the ring's
 *   range;
 * - a ring going once around a pole (Antarctica's coast) is closed beyond that pole (latitude
 *   ±91, so the pole itself is inside); a ring that is only a circle within 0.01° of a pole (an
 *   artefact of the projection-free data) is dropped.
 *
 * Speed: a 1° grid lists the polygons whose bounding box touches each cell (smallest first, so
 * the first polygon holding the point wins where outlines overlap), and each polygon keeps its
 * edges in horizontal slabs, so a ray cast looks at the few edges crossing the point's latitude.
 * The coast rule looks up border segments in a 0.5° grid.
 */

/** A point in no outline takes the nearest country whose border is within this distance. */
export const COAST_KM = 30;

const GRID_DEGREES = 1;
const SEGMENT_GRID_DEGREES = 0.5;

export interface CountryHit {
  code: string;
  /** 0 inside an outline; else the distance in km to the nearest border (coast rule). */
  distanceKm: number;
}

/** Visits the cells of a wrapping longitude/latitude grid covering [minX, maxX] x [minY, maxY]. */
function forEachCell(
  size: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  visit: (cell: number) => void,
): void {
  const columns = Math.round(360 / size);
  const rows = Math.round(180 / size);
  const row0 = Math.max(0, Math.floor((minY + 90) / size));
  const row1 = Math.min(rows - 1, Math.floor((maxY + 90) / size));
  let col0 = Math.floor((minX + 180) / size);
  let col1 = Math.floor((maxX + 180) / size);
  if (col1 - col0 >= columns - 1) [col0, col1] = [0, columns - 1];
  for (let row = row0; row <= row1; row++) {
    for (let col = col0; col <= col1; col++)
      visit(row * columns + (((col % columns) + columns) % columns));
  }
}

/** A list per grid cell, as CSR arrays: `fill(emit)` is called twice (count, then fill). */
class CellLists {
  readonly start: Int32Array;
  readonly items: Int32Array;
  readonly extra: Int32Array;

  constructor(
    cells: number,
    fill: (emit: (cell: number, item: number, extra: number) => void) => void,
  ) {
    const start = new Int32Array(cells + 1);
    fill((cell) => start[cell + 1]!++);
    for (let c = 0; c < cells; c++) start[c + 1]! += start[c]!;
    const items = new Int32Array(start[cells]!);
    const extra = new Int32Array(start[cells]!);
    const next = start.slice(0, cells);
    fill((cell, item, more) => {
      const at = next[cell]!++;
      items[at] = item;
      extra[at] = more;
    });
    this.start = start;
    this.items = items;
    this.extra = extra;
  }
}

export interface AtlasData {
  /** The country codes the outlines hold (ISO 3166-1 alpha-2, plus XK). */
  readonly codes: ReadonlySet<string>;
  /** The code whose outline holds the point, else the nearest within COAST_KM, else null. */
  locate(latitude: number, longitude: number): CountryHit | null;
  /** The same answer with no index: every polygon and every border segment (the baseline). */
  locateByScan(latitude: number, longitude: number): CountryHit | null;
  /** Polygons and edges, for the README and the bench. */
  readonly size: { polygons: number; edges: number };
}

/** Builds the lookup from a world-atlas countries topology. */
export function buildAtlas(topology: Topology, coastKm = COAST_KM): AtlasData {
  const shapes: Shape[] = [];
  // one feature at a time, so its GeoJSON arrays are short-lived
  const countries = topology.objects.countries as GeometryCollection<{ name: string }>;
  for (const object of countries.geometries) {
    const f = feature(topology, object as TopoPolygon); // or a MultiPolygon: both handled below;
    const geometry = f.geometry as Polygon | MultiPolygon | null;
    if (!geometry) continue;
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const rings of polygons) {
      const code = polygonCode(
        f.id,
        (object.properties as { name: string }).name,
        rings[0]?.[0] ?? [0, 0],
      );
      if (code === null) continue;
      const shape = buildShape(code, rings);
      if (shape) shapes.push(shape);
    }
  }
  const area = (s: Shape) => (s.maxX - s.minX) * (s.maxY - s.minY);
  shapes.sort((a, b) => area(a) - area(b));

  const columns = 360 / GRID_DEGREES;
  const polygonGrid = new CellLists(columns * (180 / GRID_DEGREES), (emit) =>
    shapes.forEach((s, i) => {
      forEachCell(GRID_DEGREES, s.minX, s.minY, s.maxX, s.maxY, (cell) => emit(cell, i, 0));
    }),
  );
  const segmentGrid = new CellLists(
    (360 / SEGMENT_GRID_DEGREES) * (180 / SEGMENT_GRID_DEGREES),
    (emit) =>
      shapes.forEach((s, i) => {
        const e = s.edges;
        for (let edge = 0; edge < s.border.length; edge++) {
          if (!s.border[edge]) continue;
          const x1 = e[4 * edge]!;
          const y1 = e[4 * edge + 1]!;
          const x2 = e[4 * edge + 2]!;
          const y2 = e[4 * edge + 3]!;
          forEachCell(
            SEGMENT_GRID_DEGREES,
            Math.min(x1, x2),
            Math.min(y1, y2),
            Math.max(x1, x2),
            Math.max(y1, y2),
            (cell) => emit(cell, i, edge),
          );
        }
      }),
  );

  const kmPerLonDegreeAt = (latitude: number) =>
    KM_PER_DEGREE * Math.cos((latitude * Math.PI) / 180);

  /** The nearest border within coastKm: among the segments near the point, or every one. */
  const nearest = (latitude: number, longitude: number, scan: boolean): CountryHit | null => {
    const kmPerLon = kmPerLonDegreeAt(latitude);
    let best: CountryHit | null = null;
    const consider = (shape: number, edge: number) => {
      const km = edgeDistanceKm(shapes[shape]!, edge, latitude, longitude, kmPerLon);
      if (km <= coastKm && (best === null || km < best.distanceKm)) {
        best = { code: shapes[shape]!.code, distanceKm: km };
      }
    };
    if (scan) {
      for (let i = 0; i < shapes.length; i++) {
        const border = shapes[i]!.border;
        for (let edge = 0; edge < border.length; edge++) if (border[edge]) consider(i, edge);
      }
      return best;
    }
    const dLat = coastKm / KM_PER_DEGREE;
    const poleward = kmPerLonDegreeAt(Math.min(90, Math.abs(latitude) + dLat));
    const dLon = poleward * 180 > coastKm ? coastKm / poleward : 180;
    const { start, items, extra } = segmentGrid;
    forEachCell(
      SEGMENT_GRID_DEGREES,
      longitude - dLon,
      latitude - dLat,
      longitude + dLon,
      latitude + dLat,
      (cell) => {
        for (let j = start[cell]!; j < start[cell + 1]!; j++) consider(items[j]!, extra[j]!);
      },
    );
    return best;
  };

  const gridCell = (latitude: number, longitude: number) => {
    const row = Math.min(180 / GRID_DEGREES - 1, Math.floor((latitude + 90) / GRID_DEGREES));
    const col = Math.floor((wrapLongitude(longitude) + 180) / GRID_DEGREES) % columns;
    return row * columns + col;
  };

  const checkPoint = (latitude: number, longitude: number) => {
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90) {
      throw new RangeError(`not a point: ${latitude}, ${longitude}`);
    }
  };

  return {
    codes: new Set(shapes.map((s) => s.code)),
    size: { polygons: shapes.length, edges: shapes.reduce((sum, s) => sum + s.border.length, 0) },
    locate(latitude, rawLongitude) {
      checkPoint(latitude, rawLongitude);
      const longitude = wrapLongitude(rawLongitude);
      const cell = gridCell(latitude, longitude);
      for (let j = polygonGrid.start[cell]!; j < polygonGrid.start[cell + 1]!; j++) {
        const shape = shapes[polygonGrid.items[j]!]!;
        if (holds(shape, latitude, longitude, true)) return { code: shape.code, distanceKm: 0 };
      }
      return nearest(latitude, longitude, false);
    },
    locateByScan(latitude, rawLongitude) {
      checkPoint(latitude, rawLongitude);
      const longitude = wrapLongitude(rawLongitude);
      for (const shape of shapes) {
        if (holds(shape, latitude, longitude, false)) return { code: shape.code, distanceKm: 0 };
      }
      return nearest(latitude, longitude, true);
    },
  };
}
