import type { Position } from 'geojson';
import { distanceToSegment, KM_PER_DEGREE, wrapLongitude } from './geo';

// One country polygon as the lookup keeps it (lookup.ts says how and why): flat edges in
// horizontal slabs, its rings unwrapped at the antimeridian and closed beyond a pole, and the
// tests a point goes through (inside by the even-odd rule, or near an edge).

const POLAR_ARTEFACT_DEGREES = 0.01;
/** Edges per slab a polygon aims at (more slabs: fewer edges per ray cast, more memory). */
const EDGES_PER_SLAB = 4;
/**
 * world-atlas quantises coordinates (at 1:10m to 0.0036° of longitude, about 300 m), which
 * collapses the Vatican (0.44 km²) to a line of zero area. An outline under COLLAPSED_KM2 holds
 * the points within COLLAPSED_NEAR_KM of it instead (checked before the country around it).
 */
export const COLLAPSED_KM2 = 0.01;
export const COLLAPSED_NEAR_KM = 0.5;

/** One polygon (an outer ring and its holes), as flat edges. */
export interface Shape {
  code: string;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /**
   * x1, y1, x2, y2 per edge, every ring of the polygon (even-odd rule). Single precision: about
   * 1 m at ±180°, far below the data's own 0.0036° quantisation, at half the memory.
   */
  edges: Float32Array;
  /** 1 when the edge is a real border or coast, 0 for the closing edges beyond a pole. */
  border: Uint8Array;
  slabHeight: number;
  /** CSR: slab k's edges are slabEdges[slabStart[k] .. slabStart[k + 1]). */
  slabStart: Int32Array;
  slabEdges: Int32Array;
  /** Zero area in the data: holds the points within COLLAPSED_NEAR_KM (bbox widened to match). */
  collapsed: boolean;
}

/**
 * A ring as flat x, y pairs: longitudes made continuous (no step between neighbours larger
 * than 180°) and, going once round a pole, closed beyond it. `polar`: the last three points
 * are that closure (not a border). Null when too short or a polar artefact.
 */
function planarRing(ring: readonly Position[]): { xy: Float64Array; polar: boolean } | null {
  const n = ring.length;
  if (n < 4) return null;
  const xy = new Float64Array(2 * n + 6);
  let offset = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    const [lng = 0, lat = 0] = ring[i]!;
    let x = lng + offset;
    if (i > 0 && Math.abs(x - xy[2 * i - 2]!) > 180) {
      offset += x > xy[2 * i - 2]! ? -360 : 360;
      x = lng + offset;
    }
    xy[2 * i] = x;
    xy[2 * i + 1] = lat;
    sumY += lat;
  }
  const [x0, y0, xn] = [xy[0]!, xy[1]!, xy[2 * n - 2]!];
  if (Math.abs(xn - x0) < 180) return { xy: xy.subarray(0, 2 * n), polar: false };
  const pole = sumY < 0 ? -90 : 90;
  let artefact = true;
  for (let i = 0; i < n && artefact; i++)
    artefact = Math.abs(xy[2 * i + 1]! - pole) < POLAR_ARTEFACT_DEGREES;
  if (artefact) return null;
  const beyond = pole < 0 ? -91 : 91;
  xy.set([xn, beyond, x0, beyond, x0, y0], 2 * n);
  return { xy, polar: true };
}

export function buildShape(code: string, rings: readonly (readonly Position[])[]): Shape | null {
  const planar = rings.map(planarRing);
  const capacity = planar.reduce((sum, r) => sum + (r ? r.xy.length / 2 - 1 : 0), 0);
  const edges = new Float32Array(4 * capacity);
  const border = new Uint8Array(capacity);
  let count = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let area = 0; // shoelace, in degrees²
  for (const ring of planar) {
    if (!ring) continue;
    const { xy, polar } = ring;
    const points = xy.length / 2;
    const realEdges = polar ? points - 4 : points - 1;
    for (let i = 0; i + 1 < points; i++) {
      // as stored (single precision), so the box and the area are the edges'
      const x1 = Math.fround(xy[2 * i]!);
      const y1 = Math.fround(xy[2 * i + 1]!);
      const x2 = Math.fround(xy[2 * i + 2]!);
      const y2 = Math.fround(xy[2 * i + 3]!);
      if (x1 === x2 && y1 === y2) continue;
      edges[4 * count] = x1;
      edges[4 * count + 1] = y1;
      edges[4 * count + 2] = x2;
      edges[4 * count + 3] = y2;
      border[count++] = i < realEdges ? 1 : 0;
      minX = Math.min(minX, x1);
      maxX = Math.max(maxX, x1);
      minY = Math.min(minY, y1);
      maxY = Math.max(maxY, y1);
      area += x1 * y2 - x2 * y1;
    }
  }
  if (count === 0) return null;
  const kmPerLon = KM_PER_DEGREE * Math.cos((((minY + maxY) / 2) * Math.PI) / 180);
  const collapsed = (Math.abs(area) / 2) * KM_PER_DEGREE * kmPerLon < COLLAPSED_KM2;
  if (collapsed) {
    const dLat = COLLAPSED_NEAR_KM / KM_PER_DEGREE;
    const dLon = COLLAPSED_NEAR_KM / kmPerLon;
    [minX, minY, maxX, maxY] = [minX - dLon, minY - dLat, maxX + dLon, maxY + dLat];
  }
  const slabs = Math.max(1, Math.ceil(count / EDGES_PER_SLAB));
  const slabHeight = (maxY - minY) / slabs || 1;
  const slabOf = (y: number) =>
    Math.min(slabs - 1, Math.max(0, Math.floor((y - minY) / slabHeight)));
  const slabStart = new Int32Array(slabs + 1);
  const first = new Int32Array(count);
  const last = new Int32Array(count);
  for (let e = 0; e < count; e++) {
    const y1 = edges[4 * e + 1]!;
    const y2 = edges[4 * e + 3]!;
    first[e] = slabOf(Math.min(y1, y2));
    last[e] = slabOf(Math.max(y1, y2));
    for (let k = first[e]!; k <= last[e]!; k++) slabStart[k + 1]!++;
  }
  for (let k = 0; k < slabs; k++) slabStart[k + 1]! += slabStart[k]!;
  const slabEdges = new Int32Array(slabStart[slabs]!);
  const fill = slabStart.slice(0, slabs);
  for (let e = 0; e < count; e++) {
    for (let k = first[e]!; k <= last[e]!; k++) slabEdges[fill[k]!++] = e;
  }
  return {
    code,
    minX,
    minY,
    maxX,
    maxY,
    edges: edges.subarray(0, 4 * count),
    border: border.subarray(0, count),
    slabHeight,
    slabStart,
    slabEdges,
    collapsed,
  };
}

/** The point's longitude moved by 360° into the shape's range, when it is there at all. */
export function longitudeIn(shape: Shape, longitude: number): number | null {
  for (const x of [longitude, longitude + 360, longitude - 360]) {
    if (x >= shape.minX && x <= shape.maxX) return x;
  }
  return null;
}

/**
 * Even-odd ray cast towards +x over a shape's edges `ids[from..to)`, or edges `from..to` when
 * `ids` is null.
 */
function crossesOdd(
  shape: Shape,
  x: number,
  y: number,
  ids: Int32Array | null,
  from: number,
  to: number,
): boolean {
  const e = shape.edges;
  let inside = false;
  for (let j = from; j < to; j++) {
    const i = ids ? ids[j]! : j;
    const y1 = e[4 * i + 1]!;
    const y2 = e[4 * i + 3]!;
    if (y1 > y !== y2 > y) {
      const x1 = e[4 * i]!;
      const x2 = e[4 * i + 2]!;
      if (x < x1 + ((y - y1) * (x2 - x1)) / (y2 - y1)) inside = !inside;
    }
  }
  return inside;
}

/** Whether the shape holds the point, by its slabs (`indexed`) or by every edge. */
export function holds(
  shape: Shape,
  latitude: number,
  longitude: number,
  indexed: boolean,
): boolean {
  if (latitude < shape.minY || latitude > shape.maxY) return false;
  const x = longitudeIn(shape, longitude);
  if (x === null) return false;
  if (shape.collapsed) return nearEdge(shape, latitude, x, COLLAPSED_NEAR_KM);
  if (!indexed) return crossesOdd(shape, x, latitude, null, 0, shape.border.length);
  const slabs = shape.slabStart.length - 1;
  const k = Math.min(
    slabs - 1,
    Math.max(0, Math.floor((latitude - shape.minY) / shape.slabHeight)),
  );
  return crossesOdd(
    shape,
    x,
    latitude,
    shape.slabEdges,
    shape.slabStart[k]!,
    shape.slabStart[k + 1]!,
  );
}

/** Distance in km from the point to a shape's edge, on a plane centred on the point. */
export function edgeDistanceKm(
  shape: Shape,
  edge: number,
  latitude: number,
  longitude: number,
  kmPerLonDegree: number,
): number {
  const e = shape.edges;
  const ax = wrapLongitude(e[4 * edge]! - longitude) * kmPerLonDegree;
  const ay = (e[4 * edge + 1]! - latitude) * KM_PER_DEGREE;
  const bx = ax + (e[4 * edge + 2]! - e[4 * edge]!) * kmPerLonDegree;
  const by = (e[4 * edge + 3]! - latitude) * KM_PER_DEGREE;
  return distanceToSegment(ax, ay, bx, by);
}

export function nearEdge(shape: Shape, latitude: number, longitude: number, km: number): boolean {
  const kmPerLon = KM_PER_DEGREE * Math.cos((latitude * Math.PI) / 180);
  for (let edge = 0; edge < shape.border.length; edge++) {
    if (edgeDistanceKm(shape, edge, latitude, longitude, kmPerLon) <= km) return true;
  }
  return false;
}
