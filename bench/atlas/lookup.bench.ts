/**
 * Country lookup benchmark: @wayfarer/atlas's index against a linear scan of every
 * polygon (and, off every outline, every border segment), side by side in one process.
 *
 *   node --expose-gc --import tsx bench/atlas/lookup.bench.ts
 *
 * The mix (fixed seed): 70 % real places (GeoNames cities from @wayfarer/places' dataset: where
 * destinations are), 30 % uniform points on the globe (mostly sea: the coast rule and open sea).
 * Both sides' answers are checked to be equal first; then interleaved rounds time each point
 * on both (the order flips each round). Prints lookups per second, p50/p95/p99 by kind of
 * answer, the build time and retained heap, and the agreement with GeoNames' country codes over
 * all ~135k cities at 1:10m (what the package uses) and 1:50m (what the map draws).
 * Prints figures only; nothing here is a test.
 */
import { createAtlas, loadTopology } from '@wayfarer/atlas';
import { type City, loadCities } from '@wayfarer/places';
import { recordBudget } from '../lib/results';
import { mulberry32, percentile } from '../lib/stats';

const SEED = 22;
const POINTS = 400;
const ROUNDS = 5;

const gc = (globalThis as { gc?: () => void }).gc;
const heapMB = () => {
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
};

const random = mulberry32(SEED);

// --- build ---------------------------------------------------------------------------------
const heapBefore = heapMB();
let t = performance.now();
const atlas = createAtlas();
const buildMs = performance.now() - t;
const retainedMB = heapMB() - heapBefore;
const { polygons, edges } = atlas.data.size;
console.log(`atlas lookup benchmark (Node ${process.version})`);
console.log(
  `1:10m outlines: ${polygons} polygons, ${edges.toLocaleString('en')} edges, ${atlas.countries.size} countries; ` +
    `read + build ${buildMs.toFixed(0)} ms; ` +
    (gc
      ? `retained ${retainedMB.toFixed(1)} MB (heap + typed arrays)`
      : 'retained: run with --expose-gc'),
);

// --- the mix -------------------------------------------------------------------------------
const cities = loadCities();
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const points: Array<[number, number]> = [];
for (let i = 0; i < POINTS; i++) {
  if (random() < 0.7) {
    const city = pick(cities);
    points.push([city.latitude, city.longitude]);
  } else {
    // uniform on the sphere
    points.push([(Math.asin(2 * random() - 1) * 180) / Math.PI, random() * 360 - 180]);
  }
}
type Kind = 'in an outline' | 'coast rule' | 'open sea';
const kindOf = (i: number): Kind => {
  const hit = atlas.data.locate(...points[i]!);
  return !hit ? 'open sea' : hit.distanceKm === 0 ? 'in an outline' : 'coast rule';
};
for (const [lat, lon] of points) {
  const a = atlas.data.locate(lat, lon);
  const b = atlas.data.locateByScan(lat, lon);
  if (a?.code !== b?.code || a?.distanceKm !== b?.distanceKm) {
    console.error(
      `different answers at ${lat}, ${lon}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
    );
    process.exit(1);
  }
}
const kinds = points.map((_, i) => kindOf(i));
const counts = new Map<Kind, number>();
for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
console.log(
  `mix: ${POINTS} points, seed ${SEED}: ` +
    [...counts].map(([k, n]) => `${k} ${n}`).join(', ') +
    '; answers identical to the scan on every point',
);

// --- interleaved rounds ----------------------------------------------------------------------
const time = (fn: () => unknown): number => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e3; // µs
};
const indexUs: number[] = [];
const scanUs: number[] = [];
const indexByKind = new Map<Kind, number[]>();
const scanByKind = new Map<Kind, number[]>();
const push = (map: Map<Kind, number[]>, kind: Kind, value: number) => {
  let list = map.get(kind);
  if (!list) map.set(kind, (list = []));
  list.push(value);
};
for (let round = 0; round < ROUNDS; round++) {
  const order = points.map((_, i) => i).sort(() => random() - 0.5);
  for (const i of order) {
    const [lat, lon] = points[i]!;
    const runIndex = () => time(() => atlas.data.locate(lat, lon));
    const runScan = () => time(() => atlas.data.locateByScan(lat, lon));
    let a: number;
    let b: number;
    if (round % 2 === 0) {
      a = runIndex();
      b = runScan();
    } else {
      b = runScan();
      a = runIndex();
    }
    indexUs.push(a);
    scanUs.push(b);
    push(indexByKind, kinds[i]!, a);
    push(scanByKind, kinds[i]!, b);
  }
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const us = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);
const row = (label: string, cells: string[]) =>
  console.log(label.padEnd(34) + cells.map((c) => c.padStart(12)).join(''));

console.log(
  `\nlookup time, ${ROUNDS} interleaved rounds x ${POINTS} points (${indexUs.length} samples each)`,
);
row('', ['mean', 'p50', 'p95', 'p99']);
const line = (label: string, values: number[]) =>
  row(label, [us(mean(values)), ...[50, 95, 99].map((p) => us(percentile(values, p)))]);
line('linear scan', scanUs);
line('index', indexUs);
for (const kind of counts.keys()) {
  line(`  scan, ${kind}`, scanByKind.get(kind)!);
  line(`  index, ${kind}`, indexByKind.get(kind)!);
}
const indexPerSecond = 1e6 / mean(indexUs);
const scanPerSecond = 1e6 / mean(scanUs);
console.log(
  `lookups per second: index ${Math.round(indexPerSecond).toLocaleString('en')}, ` +
    `scan ${Math.round(scanPerSecond).toLocaleString('en')} (${(indexPerSecond / scanPerSecond).toFixed(0)}x)`,
);
recordBudget({
  name: 'country lookup (countryAt) lookups per second: index / linear scan of every polygon',
  figure: indexPerSecond,
  baseline: scanPerSecond,
  unit: 'lookups/s',
  budget: { none: true },
  note: `${indexUs.length} samples each, interleaved; 70 % cities, 30 % uniform points`,
});
// --- agreement with GeoNames, 1:10m and 1:50m --------------------------------------------------
function agreement(label: string, locate: (lat: number, lon: number) => string | null): number {
  let same = 0;
  let none = 0;
  const start = performance.now();
  for (const city of cities as readonly City[]) {
    const code = locate(city.latitude, city.longitude);
    if (code === city.country) same++;
    else if (code === null) none++;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label}: ${same.toLocaleString('en')} of ${cities.length.toLocaleString('en')} GeoNames cities ` +
      `in the country GeoNames gives (${((100 * same) / cities.length).toFixed(2)} %), ${none} at open sea; ` +
      `${Math.round(cities.length / seconds).toLocaleString('en')} lookups/s in one loop`,
  );
  return cities.length / seconds;
}
console.log('');
const perSecond10m = agreement(
  '1:10m (the package)',
  (lat, lon) => atlas.countryAt(lat, lon)?.code ?? null,
);
t = performance.now();
const atlas50 = createAtlas(loadTopology('50m'));
console.log(
  `1:50m build ${(performance.now() - t).toFixed(0)} ms, ${atlas50.data.size.edges.toLocaleString('en')} edges`,
);
const perSecond50m = agreement(
  '1:50m (what the map draws)',
  (lat, lon) => atlas50.countryAt(lat, lon)?.code ?? null,
);
recordBudget({
  name: 'country lookups per second over every GeoNames city: 1:10m (the package) / 1:50m',
  figure: perSecond10m,
  baseline: perSecond50m,
  unit: 'lookups/s',
  budget: { none: true },
  note: `${cities.length} cities in one loop each (1:50m has 5.5x fewer edges)`,
});
