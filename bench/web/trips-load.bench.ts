/**
 * The first load of `/trips` in a real browser, against the real stack (its budgets):
 *
 * - bytes: a cold `/trips` (fresh browser context: empty cache) of a signed-in user with three
 *   trips, ten destinations, a photo each, moves under 1 MB (1,000,000 bytes), counted as the
 *   sum of every response's encoded size (CDP `Network.loadingFinished.encodedDataLength`:
 *   headers and body as they crossed the wire). Printed beside it: the same responses'
 *   decoded bodies (what they would move uncompressed), and where the bytes go.
 * - first marker: from navigation start to the first pin or cluster in the map, with 10 and with
 *   1,000 destinations, within 1.5x of the baseline measured in the same run: the time the map
 *   takes to load (MapLibre's `load`: `.keyless-map[data-ready="true"]`) for a user with no
 *   destinations. Every load is cold; rounds interleave the three users; medians.
 *
 *   node --import tsx bench/web/trips-load.bench.ts     (infra up, `npm run build -w frontend`)
 *
 * Starts its own stack like the e2e tests (scripts/stack, namespace `bench`, gateway 38080,
 * services 340xx) and headless Chromium through playwright-core (CHROMIUM_PATH, default
 * /usr/bin/chromium). The 1,000 destinations are 50 trips of 20 made through the API.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '@wayfarer/test-kit/browser';
import sharp from 'sharp';
import { portsAt } from '../../scripts/stack/services';
import { startStack } from '../../scripts/stack/stack';
import { gatewayClient } from '../lib/accounts';
import { recordBudget } from '../lib/results';

/** A stack of its own beside the dev one (+30000: apart from e2e's, the soak's, the clips'). */
const PORTS = portsAt(30_000);
const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 5);
const BYTES_BUDGET = 1_000_000;
const FIRST_MARKER_RATIO = 1.5;

const stack = await startStack({ namespace: 'bench', ports: PORTS, logLevel: 'warn' });
const base = `http://127.0.0.1:${PORTS.gateway}`;
let browser: Browser | undefined;

interface Account {
  cookie: { name: string; value: string };
  header: string;
}

/** A new user with its session as a header and as a browser cookie. */
async function signUp(name: string): Promise<Account> {
  const { header } = await gatewayClient(base).signUp(name);
  const eq = header.indexOf('=');
  return { cookie: { name: header.slice(0, eq), value: header.slice(eq + 1) }, header };
}

/** A photo-like JPEG (smooth colour noise, 2000x1333, ~a phone photo's detail once blurred). */
async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 2000,
      height: 1333,
      channels: 3,
      background: { r: 40 + ((seed * 53) % 180), g: 90, b: 140 },
      noise: { type: 'gaussian', mean: 110, sigma: 40 },
    },
  })
    .blur(2.5)
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function createTrip(
  account: Account,
  name: string,
  destinations: Array<{ lat: number; lng: number; photo?: Buffer }>,
): Promise<void> {
  const form = new FormData();
  form.append('name', name);
  form.append('startDate', '2025-05-01');
  form.append('endDate', '2025-05-20');
  destinations.forEach((d, i) => {
    form.append(`destinations[${i}][name]`, `${name} stop ${i + 1}`);
    form.append(`destinations[${i}][startDate]`, '2025-05-01');
    form.append(`destinations[${i}][endDate]`, '2025-05-02');
    form.append(`destinations[${i}][latitude]`, d.lat.toFixed(4));
    form.append(`destinations[${i}][longitude]`, d.lng.toFixed(4));
    form.append(`destinations[${i}][story]`, 'A day of walking, eating and looking at things.');
    if (d.photo) {
      form.append(
        `photos[${i}]`,
        new Blob([new Uint8Array(d.photo)], { type: 'image/jpeg' }),
        `p${i}.jpg`,
      );
    }
  });
  const res = await fetch(`${base}/api/trips`, {
    method: 'POST',
    body: form,
    headers: { cookie: account.header },
  });
  if (res.status !== 201) throw new Error(`create trip: ${res.status} ${await res.text()}`);
}

// a deterministic spread of places over the inhabited world
const place = (i: number) => ({
  lat: -40 + ((i * 37) % 100) + (i % 7) * 0.13,
  lng: -120 + ((i * 71) % 260) + (i % 11) * 0.17,
});

interface Load {
  /** ms from navigation start to `.keyless-map[data-ready="true"]` (MapLibre `load`). */
  mapReady: number;
  /** ms from navigation start to the first pin or cluster in the map (null: none expected). */
  firstMarker: number | null;
  /** Sum of encoded (wire) sizes of every response. */
  encodedBytes: number;
  /** Sum of decoded body sizes of the same responses. */
  decodedBytes: number;
  byKind: Map<string, { encoded: number; decoded: number; count: number }>;
}

const kindOf = (url: string, mime: string): string => {
  const path = new URL(url).pathname;
  if (path.startsWith('/api/photos/')) return 'photos';
  if (path.startsWith('/api/')) return 'api';
  if (/countries|\.geojson$/.test(path)) return 'basemap geometry';
  if (/maplibre-gl-worker/.test(path)) return 'maplibre worker';
  if (/KeylessMap-.*\.js$/.test(path)) return 'maplibre + map chunk';
  if (/\.m?js$/.test(path)) return 'other scripts';
  if (/\.css$/.test(path)) return 'styles';
  if (mime.startsWith('text/html')) return 'html';
  return 'other';
};

/**
 * Runs in the page before its own scripts: notes (performance.now(), ms from navigation start)
 * when the map says it is ready and when the first pin or cluster enters the map.
 */
const MARKS_SCRIPT = `
  const marks = (window.__bench = {});
  const check = () => {
    if (marks.mapReady === undefined && document.querySelector('.keyless-map[data-ready="true"]'))
      marks.mapReady = performance.now();
    if (marks.firstMarker === undefined &&
        document.querySelector('.keyless-map .map-pin, .keyless-map .map-cluster'))
      marks.firstMarker = performance.now();
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'],
  });
`;

/** One cold `/trips` load as `account` (fresh context: no cache, no service worker). */
async function coldLoad(account: Account, expectMarkers: boolean): Promise<Load> {
  const context = await browser!.newContext({
    baseURL: base,
    viewport: { width: 1440, height: 900 },
  });
  try {
    await context.addCookies([{ ...account.cookie, url: base }]);
    const page = await context.newPage();
    // timestamps straight from the page: when the map says it is ready, when a marker appears
    // (page code as text: this file is type-checked for Node, without the DOM)
    await page.addInitScript({ content: MARKS_SCRIPT });
    const cdp = await context.newCDPSession(page);
    const responses = new Map<
      string,
      { url: string; mime: string; decoded: number; encoded: number }
    >();
    cdp.on('Network.responseReceived', (e) =>
      responses.set(e.requestId, {
        url: e.response.url,
        mime: e.response.mimeType,
        decoded: 0,
        encoded: 0,
      }),
    );
    cdp.on('Network.dataReceived', (e) => {
      const r = responses.get(e.requestId);
      if (r) r.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = responses.get(e.requestId);
      if (r) r.encoded = e.encodedDataLength;
    });
    // a dedicated worker's requests (MapLibre's worker script) are not the page target's: take
    // those CDP did not report from Playwright, which follows workers
    const fromWorkers: Array<
      Promise<{ url: string; mime: string; decoded: number; encoded: number }>
    > = [];
    context.on('requestfinished', (request) => {
      if (request.url().startsWith('data:')) return;
      fromWorkers.push(
        (async () => {
          const sizes = await request.sizes();
          const response = await request.response();
          return {
            url: request.url(),
            mime: (await response?.headerValue('content-type')) ?? '',
            decoded: (await response?.body())?.length ?? 0,
            // a worker's body size may be reported as 0: its declared length then
            encoded:
              sizes.responseHeadersSize +
              (sizes.responseBodySize ||
                Number((await response?.headerValue('content-length')) ?? 0)),
          };
        })(),
      );
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });

    await page.goto('/trips');
    await page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 60_000 });
    if (expectMarkers) {
      await page
        .locator('.keyless-map .map-pin, .keyless-map .map-cluster')
        .first()
        .waitFor({ timeout: 60_000 });
    } else {
      await page
        .getByText(/No trips|Add Trip/)
        .first()
        .waitFor({ timeout: 60_000 });
    }
    // everything the first view asks for (basemap, covers) has arrived
    await page.waitForLoadState('networkidle');
    const marks = (await page.evaluate('window.__bench')) as {
      mapReady?: number;
      firstMarker?: number;
    };
    const byKind = new Map<string, { encoded: number; decoded: number; count: number }>();
    let encodedBytes = 0;
    let decodedBytes = 0;
    const seen = new Set([...responses.values()].map((r) => r.url));
    const extra = (await Promise.all(fromWorkers)).filter((r) => !seen.has(r.url));
    for (const r of [...responses.values(), ...extra]) {
      if (r.url.startsWith('data:')) continue;
      encodedBytes += r.encoded;
      decodedBytes += r.decoded;
      const kind = kindOf(r.url, r.mime);
      const k = byKind.get(kind) ?? { encoded: 0, decoded: 0, count: 0 };
      k.encoded += r.encoded;
      k.decoded += r.decoded;
      k.count += 1;
      byKind.set(kind, k);
    }
    if (marks.mapReady === undefined) throw new Error('the map never said it was ready');
    return {
      mapReady: marks.mapReady,
      firstMarker: expectMarkers ? (marks.firstMarker ?? null) : null,
      encodedBytes,
      decodedBytes,
      byKind,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;

try {
  console.log(`trips first-load benchmark (Node ${process.version}), stack at ${base}`);
  // --- the three users ---------------------------------------------------------------------
  const empty = await signUp('Bench Empty');
  const ten = await signUp('Bench Ten');
  const thousand = await signUp('Bench Thousand');
  const photos = await Promise.all(Array.from({ length: 10 }, (_, i) => photo(i)));
  console.log(
    `photos: 10 JPEGs of 2000x1333, ${kB(photos.reduce((s, p) => s + p.length, 0))} in all`,
  );
  let d = 0;
  for (const [name, count] of [
    ['Lisbon and Porto', 4],
    ['Kyoto', 3],
    ['Andes', 3],
  ] as const) {
    await createTrip(
      ten,
      name,
      Array.from({ length: count }, () => ({ ...place(d), photo: photos[d++] })),
    );
  }
  const seedStart = performance.now();
  for (let t = 0; t < 50; t++) {
    await createTrip(
      thousand,
      `Trip ${t + 1}`,
      Array.from({ length: 20 }, (_, i) => place(t * 20 + i)),
    );
  }
  console.log(
    `seeded: 3 trips / 10 destinations / 10 photos; 50 trips / 1,000 destinations ` +
      `(${((performance.now() - seedStart) / 1000).toFixed(1)} s)`,
  );

  browser = await launchChromium();

  // --- warm-up (the stack's first answers, Chromium's own start): not measured ---------------
  await coldLoad(ten, true);

  // --- interleaved cold loads --------------------------------------------------------------
  const loads = { empty: [] as Load[], ten: [] as Load[], thousand: [] as Load[] };
  const order = [
    ['empty', empty, false],
    ['ten', ten, true],
    ['thousand', thousand, true],
  ] as const;
  for (let round = 0; round < ROUNDS; round++) {
    const rotated = [...order.slice(round % 3), ...order.slice(0, round % 3)];
    for (const [key, account, markers] of rotated)
      loads[key].push(await coldLoad(account, markers));
  }

  const first = loads.ten[0]!;
  console.log(`\ncold /trips, 10 destinations with photos: where the bytes go (one load)`);
  console.log(
    `${'kind'.padEnd(22)}${'requests'.padStart(10)}${'on the wire'.padStart(14)}${'decoded'.padStart(12)}`,
  );
  for (const [kind, k] of [...first.byKind].sort((a, b) => b[1].encoded - a[1].encoded)) {
    console.log(
      `${kind.padEnd(22)}${String(k.count).padStart(10)}${kB(k.encoded).padStart(14)}${kB(k.decoded).padStart(12)}`,
    );
  }
  console.log(
    `${'total'.padEnd(22)}${''.padStart(10)}${kB(first.encodedBytes).padStart(14)}${kB(first.decodedBytes).padStart(12)}`,
  );

  const mapReady = median(loads.empty.map((l) => l.mapReady));
  const markerAt = (ls: Load[]) => median(ls.map((l) => l.firstMarker ?? Number.POSITIVE_INFINITY));
  console.log(
    `\n${ROUNDS} interleaved cold loads each (medians): map ready with no destinations ` +
      `${mapReady.toFixed(0)} ms; 10 destinations: ready ${median(loads.ten.map((l) => l.mapReady)).toFixed(0)} ms, ` +
      `first marker ${markerAt(loads.ten).toFixed(0)} ms; 1,000: ready ` +
      `${median(loads.thousand.map((l) => l.mapReady)).toFixed(0)} ms, first marker ${markerAt(loads.thousand).toFixed(0)} ms\n`,
  );

  recordBudget({
    name: 'cold /trips bytes on the wire (10 destinations, photos)',
    figure: median(loads.ten.map((l) => l.encodedBytes)),
    baseline: median(loads.ten.map((l) => l.decodedBytes)),
    unit: 'bytes',
    budget: { figureBelow: BYTES_BUDGET },
    note: 'baseline: the same responses decoded (uncompressed); budget on the figure',
  });
  recordBudget({
    name: 'first marker, 10 destinations / map ready, none',
    figure: markerAt(loads.ten),
    baseline: mapReady,
    unit: 'ms',
    budget: { ratioAtMost: FIRST_MARKER_RATIO },
    note: `medians of ${ROUNDS} cold loads each, interleaved`,
  });
  recordBudget({
    name: 'first marker, 1,000 destinations / map ready, none',
    figure: markerAt(loads.thousand),
    baseline: mapReady,
    unit: 'ms',
    budget: { ratioAtMost: FIRST_MARKER_RATIO },
    note: `medians of ${ROUNDS} cold loads each, interleaved`,
  });
} finally {
  await browser?.close();
  await stack.stop();
}
