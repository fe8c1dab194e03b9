/**
 * A lighter world-atlas topology for the keyless basemap (applied at build time by
 * `build/basemap.ts`): coordinates on a grid `factor` times coarser, then each arc simplified
 * (Douglas-Peucker, `tolerance` grid steps, arc ends kept, so shared borders stay shared).
 * With the defaults the error stays within about a pixel at the map's highest zoom (6.5, where a
 * degree of longitude is ~64 px; one grid step is 0.0144°) and the file is ~40% lighter.
 * Pure.
 */
export interface Topology {
  type: 'Topology';
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: Array<Array<[number, number]>>;
  objects: Record<string, unknown>;
  [key: string]: unknown;
}

type Point = [number, number];

function simplify(points: Point[], tolerance: number): Point[] {
  if (points.length <= 2) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = points[a]!;
    const [bx, by] = points[b]!;
    const dx = bx - ax;
    const dy = by - ay;
    const length = Math.hypot(dx, dy);
    let farthest = -1;
    let distance = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = points[i]!;
      const d =
        length === 0
          ? Math.hypot(px - ax, py - ay)
          : Math.abs(dy * px - dx * py + bx * ay - by * ax) / length;
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (distance > tolerance) {
      keep[farthest] = 1;
      stack.push([a, farthest], [farthest, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

export function lightenTopology(topology: Topology, factor = 4, tolerance = 1): Topology {
  let maxX = 0;
  let maxY = 0;
  const absolute = topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]): Point => {
      x += dx;
      y += dy;
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
      return [x, y];
    });
  });
  // never past the original extent (±180°, ±90°): the antimeridian fix relies on it
  const limitX = Math.floor(maxX / factor);
  const limitY = Math.floor(maxY / factor);
  const arcs = absolute.map((arc) => {
    const coarse = simplify(
      arc.map(([x, y]): Point => [
        Math.min(limitX, Math.max(0, Math.round(x / factor))),
        Math.min(limitY, Math.max(0, Math.round(y / factor))),
      ]),
      tolerance,
    ).filter(
      (p, i, all) =>
        i === 0 || i === all.length - 1 || p[0] !== all[i - 1]![0] || p[1] !== all[i - 1]![1],
    );
    let px = 0;
    let py = 0;
    return coarse.map(([x, y]): Point => {
      const delta: Point = [x - px, y - py];
      px = x;
      py = y;
      return delta;
    });
  });
  const [sx, sy] = topology.transform.scale;
  return {
    ...topology,
    transform: { ...topology.transform, scale: [sx * factor, sy * factor] },
    arcs,
  };
}
