import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';

/**
 * The map test harness (frontend/harness/map.html, its own Vite entry outside the production
 * build): built with `vite build --config vite.harness.config.ts`, then served by
 * `vite preview` on a free loopback port for the duration of a test file.
 */
const frontend = join(dirname(fileURLToPath(import.meta.url)), '../../frontend');
const viteBin = join(frontend, '../node_modules/vite/bin/vite.js');
const CONFIG = 'vite.harness.config.ts';

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [viteBin, ...args], {
      cwd: frontend,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite ${args[0]} failed (${code}):\n${output}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface MapHarness {
  url: string;
  stop(): Promise<void>;
}

/** Builds the harness and serves it with `vite preview`; `stop()` ends that server. */
export async function startMapHarness(): Promise<MapHarness> {
  await run(['build', '--config', CONFIG, '--logLevel', 'warn']);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [viteBin, 'preview', '--config', CONFIG, '--port', String(port), '--strictPort'],
    { cwd: frontend, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vite preview exited:\n${log}`);
    try {
      const res = await fetch(`${url}/map.html`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`vite preview did not answer on ${url}:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop };
}

export interface HarnessPage {
  context: BrowserContext;
  page: Page;
  /** Every request the page (and its workers) made, in order. */
  requests: Request[];
}

/** A fresh context on the harness, recording requests; the map handle is `window.__map`. */
export async function openHarness(
  browser: Browser,
  harness: MapHarness,
  options: { width: number; height?: number; query?: string; runtimeKey?: string | null } = {
    width: 1440,
  },
): Promise<HarnessPage> {
  const context = await browser.newContext({
    baseURL: harness.url,
    viewport: { width: options.width, height: options.height ?? 900 },
  });
  const requests: Request[] = [];
  context.on('request', (req) => requests.push(req));
  if (options.runtimeKey !== undefined) {
    await context.route('**/runtime-config.json', (route) =>
      route.fulfill({ json: { googleMapsApiKey: options.runtimeKey } }),
    );
  }
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  await page.goto(`/map.html${options.query ? `?${options.query}` : ''}`);
  return { context, page, requests };
}

export interface ViewState {
  zoom: number;
  lat: number;
  lng: number;
  interactive: boolean;
}

declare global {
  interface Window {
    __map?: {
      provider: string;
      getZoom(): number;
      getCenter(): { lat: number; lng: number };
      select(id: string): boolean;
      focus(id: string): boolean;
      close(): void;
      isInteractive(): boolean;
    } | null;
  }
}

/** Waits for the keyless map: handle ready and the basemap drawn once. */
export async function waitForMap(page: Page): Promise<void> {
  await page.waitForFunction(() => !!window.__map, undefined, { timeout: 30_000 });
  await page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 30_000 });
}

export function readView(page: Page): Promise<ViewState> {
  return page.evaluate(() => {
    const map = window.__map!;
    const c = map.getCenter();
    return { zoom: map.getZoom(), lat: c.lat, lng: c.lng, interactive: map.isInteractive() };
  });
}

/** The view once the camera has stopped moving (two equal reads 150 ms apart). */
export async function settledView(page: Page, timeoutMs = 10_000): Promise<ViewState> {
  const deadline = Date.now() + timeoutMs;
  let previous = await readView(page);
  for (;;) {
    await page.waitForTimeout(150);
    const next = await readView(page);
    if (
      Math.abs(next.zoom - previous.zoom) < 1e-9 &&
      Math.abs(next.lat - previous.lat) < 1e-9 &&
      Math.abs(next.lng - previous.lng) < 1e-9
    ) {
      return next;
    }
    if (Date.now() > deadline) return next;
    previous = next;
  }
}
