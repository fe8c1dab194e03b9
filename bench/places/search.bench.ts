/**
 * Place search benchmark: our index against a naive linear scan, side by side in one process.
 *
 *   node --import tsx bench/places/search.bench.ts          (add --expose-gc for retained heap)
 *
 * Both answer the same fixed-seed query mix (1- and 2-letter prefixes, 3-6 letter prefixes,
 * accented text, multi-word, "city, country", misses); their answers are checked to be equal
 * first. Then rounds alternate the two on every query (the order flips each round), so machine
 * noise hits both alike. Prints p50/p95/p99 of each, the ratio baseline/index, and the index's
 * own p95 in ms; then the end-to-end p95 of `GET /api/places` through Fastify's inject.
 * Prints figures only; nothing here is a test.
 */
import { createLogger } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, throughGateway } from '@wayfarer/test-kit';
import { type City, loadCities } from '@wayfarer/places';
import { buildApp, buildPlaceIndex, LinearSearch, normalise } from '@wayfarer/places/bench';
import { recordBudget } from '../lib/results';

const SEED = 42;
const QUERIES = 400;
const MAX_ROUNDS = 5;
const TIME_BUDGET_MS = 20_000;
const HTTP_REQUESTS = 2_000;

const gc = (globalThis as { gc?: () => void }).gc;
const heapMB = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// --- startup -------------------------------------------------------------------------------
const heapBefore = heapMB();
let t = performance.now();
const cities = loadCities();
const loadMs = performance.now() - t;
t = performance.now();
const index = buildPlaceIndex(cities);
const indexMs = performance.now() - t;
const retainedMB = heapMB() - heapBefore;
const baseline = new LinearSearch(cities);

console.log(`places search benchmark (Node ${process.version})`);
console.log(
  `dataset: ${index.size.toLocaleString('en')} cities; startup: load ${loadMs.toFixed(0)} ms` +
    ` + index ${indexMs.toFixed(0)} ms = ${(loadMs + indexMs).toFixed(0)} ms; ` +
    (gc
      ? `retained heap (cities + index) ${retainedMB.toFixed(1)} MB`
      : 'retained heap: run with --expose-gc'),
);

// --- the query mix (fixed seed) ------------------------------------------------------------
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

// People mostly look for known places: 70% from the 5,000 biggest, 30% from anywhere.
const byPopulation = [...cities].sort((a, b) => b.population - a.population);
const popular = byPopulation.slice(0, 5000);
const someCity = (): City => (random() < 0.7 ? pick(popular) : pick(cities));
const accented = popular.filter((c) => normalise(c.name) !== c.name.toLowerCase());
const multiWord = popular.filter((c) => c.name.includes(' '));

type Kind = '1-char' | '2-char' | '3-6 chars' | 'accented' | 'multi-word' | 'city, country';
type AnyKind = Kind | 'miss';
const makers: Array<[AnyKind, number, () => string]> = [
  ['1-char', 10, () => pick([...'abcdefghijklmnopqrstuvwxyz'])],
  ['2-char', 15, () => normalise(someCity().name).slice(0, 2)],
  ['3-6 chars', 35, () => someCity().name.slice(0, between(3, 6)).toLowerCase()],
  ['accented', 10, () => pick(accented).name.slice(0, between(3, 8))],
  [
    'multi-word',
    10,
    () => {
      const [first, second = ''] = pick(multiWord).name.split(' ');
      return `${first} ${second.slice(0, between(1, 3))}`;
    },
  ],
  [
    'city, country',
    5,
    () => {
      const city = someCity();
      return `${city.name.slice(0, between(3, 8))}, ${random() < 0.5 ? city.country : 'france'}`;
    },
  ],
  [
    'miss',
    15,
    () =>
      random() < 0.8
        ? Array.from({ length: between(4, 7) }, () => pick([...'qxzjkvw'])).join('')
        : pick(['🙂', '...', '??', 'zzzzzzzzzzzz']),
  ],
];
const totalWeight = makers.reduce((sum, [, w]) => sum + w, 0);
const mix: Array<{ kind: AnyKind; query: string }> = [];
for (let i = 0; i < QUERIES; i++) {
  let roll = random() * totalWeight;
  const [kind, , make] = makers.find(([, w]) => (roll -= w) < 0) ?? makers[0]!;
  mix.push({ kind, query: make() });
}

// --- same answers first ----------------------------------------------------------------------
for (const { query } of mix) {
  const ours = index.search(query).map((c) => c.id);
  const theirs = baseline.search(query).map((c) => c.id);
  if (ours.join() !== theirs.join()) {
    console.error(`different answers for ${JSON.stringify(query)}: ${ours} vs ${theirs}`);
    process.exit(1);
  }
}
const counts = new Map<AnyKind, number>();
for (const { kind } of mix) counts.set(kind, (counts.get(kind) ?? 0) + 1);
console.log(
  `query mix: ${QUERIES} queries, seed ${SEED}: ` +
    [...counts].map(([k, n]) => `${k} ${n}`).join(', ') +
    '; answers identical to the baseline on every query',
);

// --- interleaved rounds ----------------------------------------------------------------------
const time = (fn: () => unknown): number => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const oursMs: number[] = [];
const baseMs: number[] = [];
const oursByKind = new Map<AnyKind, number[]>();

// one unmeasured warm-up round
for (const { query } of mix) {
  index.search(query);
  baseline.search(query);
}
const started = performance.now();
let rounds = 0;
while (rounds < MAX_ROUNDS && performance.now() - started < TIME_BUDGET_MS) {
  const order = mix.map((_, i) => i).sort(() => random() - 0.5);
  for (const i of order) {
    const { kind, query } = mix[i]!;
    const runOurs = () => time(() => index.search(query));
    const runBase = () => time(() => baseline.search(query));
    let ours: number;
    if (rounds % 2 === 0) {
      ours = runOurs();
      baseMs.push(runBase());
    } else {
      baseMs.push(runBase());
      ours = runOurs();
    }
    oursMs.push(ours);
    let byKind = oursByKind.get(kind);
    if (!byKind) oursByKind.set(kind, (byKind = []));
    byKind.push(ours);
  }
  rounds++;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (v: number) => (v >= 1 ? `${v.toFixed(2)} ms` : `${(v * 1000).toFixed(1)} µs`);
const row = (label: string, cells: string[]) =>
  console.log(label.padEnd(22) + cells.map((c) => c.padStart(12)).join(''));

console.log(
  `\nsearch latency, ${rounds} interleaved rounds x ${QUERIES} queries (${oursMs.length} samples each)`,
);
row('', ['p50', 'p95', 'p99']);
const ps = [50, 95, 99];
row(
  'baseline (linear scan)',
  ps.map((p) => ms(percentile(baseMs, p))),
);
row(
  'index',
  ps.map((p) => ms(percentile(oursMs, p))),
);
row(
  'ratio baseline/index',
  ps.map((p) => `${(percentile(baseMs, p) / percentile(oursMs, p)).toFixed(0)}x`),
);
console.log(`index p95: ${percentile(oursMs, 95).toFixed(4)} ms (target: well under 5 ms)`);
recordBudget({
  name: 'places search p95: index / linear scan',
  figure: percentile(oursMs, 95),
  baseline: percentile(baseMs, 95),
  unit: 'ms',
  budget: { none: true },
  note: `${oursMs.length} samples each, interleaved`,
});
console.log(
  'index p95 by kind: ' +
    [...oursByKind].map(([kind, values]) => `${kind} ${ms(percentile(values, 95))}`).join(', '),
);

// --- end to end through Fastify (inject: no sockets) -----------------------------------------
// as the gateway calls it: each request carries a freshly minted identity proof
const app = throughGateway(
  buildApp({
    logger: createLogger('places', 'silent'),
    index,
    identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
  }),
);
await app.ready();
const httpMs: number[] = [];
for (let i = 0; i < HTTP_REQUESTS + 200; i++) {
  const { query } = mix[i % mix.length]!;
  const start = process.hrtime.bigint();
  const res = await app.inject({
    method: 'GET',
    url: `/api/places?query=${encodeURIComponent(query)}`,
    headers: { 'x-user-id': 'bench' },
  });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${query}`);
  if (i >= 200) httpMs.push(elapsed); // the first 200 warm up
}
await app.close();
console.log(
  `\nGET /api/places via app.inject, ${HTTP_REQUESTS} requests of the same mix: ` +
    `p50 ${ms(percentile(httpMs, 50))}, p95 ${ms(percentile(httpMs, 95))}, ` +
    `p99 ${ms(percentile(httpMs, 99))}`,
);
console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s after startup`);
