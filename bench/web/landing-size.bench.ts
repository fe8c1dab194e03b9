/**
 * The landing page's own weight (its budget): the JavaScript and CSS a visitor's browser
 * fetches to show `/home`, under 120 kB gzip (120,000 bytes). Not counted: the clips and their
 * posters (media, listed apart), the HTML document, the favicon.
 *
 * How: the built frontend (`frontend/dist`, `npm run build -w frontend`) is served by a small
 * static server of this file (`/api/*` answers 401, so the page's session check sees a visitor;
 * page paths fall back to index.html, like the gateway); headless Chromium loads `/home`, scrolls
 * to the bottom (anything loaded on scroll counts too) and waits for the network to settle. Every
 * `.js`/`.css` file it asked for is counted at the size the gateway sends it with gzip: its
 * `.gz` twin written by the build (gzip level 9), or the file itself when the build left it
 * uncompressed (too small to gain). Baseline, for reading: the same files uncompressed.
 *
 *   node --import tsx bench/web/landing-size.bench.ts      (or `npm run bench -- landing`)
 *
 * No stack, no infra: a few seconds. Chromium through playwright-core, launched by
 * `@wayfarer/test-kit/browser` (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, relative, resolve } from 'node:path';
import { launchChromium } from '@wayfarer/test-kit/browser';
import type { Browser } from 'playwright-core';
import { BENCH_DIR, recordBudget } from '../lib/results';

const BUDGET_GZIP_BYTES = 120_000;
const DIST = resolve(BENCH_DIR, '../frontend/dist');

if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`${DIST}/index.html is missing: run \`npm run build -w frontend\` first`);
  process.exit(1);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
};

/** The file of `dist` a URL path names, or null (outside dist, missing, a directory). */
function distFile(path: string): string | null {
  const file = normalize(join(DIST, decodeURIComponent(path)));
  if (relative(DIST, file).startsWith('..')) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?', 1)[0]!;
  if (path.startsWith('/api/')) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"message":"Unauthorized"}');
    return;
  }
  const file = distFile(path) ?? (extname(path) === '' ? join(DIST, 'index.html') : null);
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

interface Asset {
  path: string;
  raw: number;
  gzip: number;
}

let browser: Browser | undefined;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const requested = new Set<string>();
  const media: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== base) return;
    if (/\.(?:js|mjs|css)$/.test(url.pathname)) requested.add(url.pathname);
    else if (url.pathname.startsWith('/clips/')) media.push(url.pathname);
  });

  await page.goto(`${base}/home`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await page.locator('.landing-footer').waitFor();
  await page.waitForLoadState('networkidle');
  await context.close();

  const assets: Asset[] = [...requested].sort().map((path) => {
    const file = distFile(path);
    if (!file) throw new Error(`${path} was requested but is not in ${DIST}`);
    const raw = statSync(file).size;
    const gzip = existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : raw;
    return { path, raw, gzip };
  });
  if (!assets.some((a) => a.path.endsWith('.js'))) throw new Error('no script was loaded');

  const width = Math.max(...assets.map((a) => a.path.length));
  for (const a of assets) {
    console.log(
      `  ${a.path.padEnd(width)}  ${a.gzip.toLocaleString('en').padStart(8)} B gzip  ` +
        `${a.raw.toLocaleString('en').padStart(9)} B raw`,
    );
  }
  const gzip = assets.reduce((sum, a) => sum + a.gzip, 0);
  const raw = assets.reduce((sum, a) => sum + a.raw, 0);
  console.log(
    `landing /home: ${assets.length} scripts and stylesheets, ${gzip.toLocaleString('en')} B gzip ` +
      `(${(gzip / 1000).toFixed(1)} kB), ${raw.toLocaleString('en')} B uncompressed; ` +
      `clip requests not counted: ${media.length}`,
  );

  recordBudget({
    name: 'landing /home own JS + CSS, gzip / the same uncompressed',
    figure: gzip,
    baseline: raw,
    unit: 'bytes',
    budget: { figureBelow: BUDGET_GZIP_BYTES },
    note: `${assets.length} files (entry, /home chunk, their CSS); clips and posters not counted`,
  });
} finally {
  await browser?.close();
  server.close();
}
