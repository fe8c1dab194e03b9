import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@wayfarer/test-kit/browser';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/**
 * The map harness (harness/map.html, its own Vite entry outside the production build) in
 * headless Chromium: built with `vite build --config vite.harness.config.ts`, served by
 * `vite preview` on a loopback port for the duration of a test file. No stack behind it: the
 * page is fed the fixtures of harness/fixtures.ts, and a test routes whatever else it asks for.
 */
const frontend = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const viteBin = join(frontend, '../node_modules/vite/bin/vite.js');
const CONFIG = 'vite.harness.config.ts';

export const artifacts = join(frontend, 'test/component/artifacts');

/** Debian's Chromium, headless, with this network's flags (`@wayfarer/test-kit/browser`). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: false });
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Runs vite with `args`; resolves with the first match of `ready` in its output (the child
 * keeps running), or, without `ready`, once it exits with 0.
 */
function vite(args: string[], ready?: RegExp) {
  const child = spawn(process.execPath, [viteBin, ...args], {
    cwd: frontend,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const done = new Promise<RegExpMatchArray | null>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString().replace(ANSI, '');
      const match = ready ? output.match(ready) : null;
      if (match) resolve(match);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) =>
      !ready && code === 0
        ? resolve(null)
        : reject(new Error(`vite ${args[0]} exited (${code}):\n${output}`)),
    );
  });
  return { child, done };
}

export interface MapHarness {
  url: string;
  stop(): Promise<void>;
}

/** Builds the harness and serves it with `vite preview`; `stop()` ends that server. */
export async function startMapHarness(): Promise<MapHarness> {
  await vite(['build', '--config', CONFIG, '--logLevel', 'warn']).done;
  // port 0: the system picks a free one; vite prints the address once it is listening
  const preview = vite(
    ['preview', '--config', CONFIG, '--port', '0'],
    /http:\/\/127\.0\.0\.1:(\d+)\//,
  );
  const match = await preview.done;
  const url = `http://127.0.0.1:${match![1]}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (preview.child.exitCode !== null) return resolve();
      preview.child.once('exit', () => resolve());
      preview.child.kill('SIGTERM');
    });
  return { url, stop };
}

export interface HarnessPage {
  context: BrowserContext;
  page: Page;
  /** Every request the page (and its workers) made, in order. */
  requests: Request[];
}

/** A fresh context on the harness, recording requests; the map handle is `window.__map`. */
export interface HarnessOptions {
  width: number;
  height?: number;
  query?: string;
  runtimeKey?: string | null;
}

export async function openHarness(
  browser: Browser,
  harness: MapHarness,
  options: HarnessOptions = { width: 1440 },
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
    __mapEvents?: string[];
  }
}

/**
 * Waits for the keyless map: the handle is set (the first fit to the markers is issued in the
 * same commit) and the basemap has been drawn once.
 */
export async function waitForMap(page: Page): Promise<void> {
  await page.waitForFunction(() => !!window.__map, undefined, { timeout: 45_000 });
  await page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 45_000 });
}

export function readView(page: Page): Promise<ViewState> {
  return page.evaluate(() => {
    const map = window.__map!;
    const c = map.getCenter();
    return { zoom: map.getZoom(), lat: c.lat, lng: c.lng, interactive: map.isInteractive() };
  });
}

/**
 * The view once the camera is idle (`data-camera="idle"`: no move in progress, the last frame
 * drawn). A move started synchronously by the last action (a pin or cluster click, a handle
 * call) is covered; one started later by a React effect (a list's focus) is not, so such a test
 * first waits for the view it expects.
 */
export async function settledView(page: Page): Promise<ViewState> {
  await page.locator('.keyless-map[data-camera="idle"]').waitFor({ timeout: 45_000 });
  return readView(page);
}

/**
 * Records, on the page, whether each wheel event that reaches the document was taken by the map
 * (MapLibre's scroll zoom calls `preventDefault` on the wheels it handles, synchronously).
 */
export async function recordWheels(page: Page): Promise<() => Promise<boolean[]>> {
  await page.evaluate(() => {
    const seen: boolean[] = [];
    (window as unknown as { __wheels: boolean[] }).__wheels = seen;
    window.addEventListener('wheel', (e) => seen.push(e.defaultPrevented));
  });
  return () => page.evaluate(() => [...(window as unknown as { __wheels: boolean[] }).__wheels]);
}

/**
 * A describe block's harness page server and browser, started before its tests and stopped
 * after them: read `browser()` and `harness()` inside the tests.
 */
export function useHarness(): {
  browser: () => Browser;
  harness: () => MapHarness;
  /** `openHarness` on this block's browser and server. */
  open: (options?: HarnessOptions) => Promise<HarnessPage>;
} {
  let browser: Browser | undefined;
  let harness: MapHarness | undefined;
  beforeAll(async () => {
    harness = await startMapHarness();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the harness is not started');
    return value;
  };
  return {
    browser: () => started(browser),
    harness: () => started(harness),
    open: (options) => openHarness(started(browser), started(harness), options),
  };
}
