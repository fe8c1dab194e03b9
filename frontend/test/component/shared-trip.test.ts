import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShareMessages, SharePaths, type SharedTrip } from '@wayfarer/contracts';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, useHarness, type MapHarness } from './support/harness';

/**
 * The public page of a share link (`/s/:token`) in headless Chromium: the real route
 * mounted by the harness page (harness/shared.html), `GET /api/shared/<token>` and its photo
 * URLs answered by the test (no stack behind it; the page with the real stack is
 * e2e/tests/sharing.test.ts). Its states: loading, the trip (map pins, carousels, stories),
 * a gone link, a failed load and its retry.
 */

const TOKEN = 'S'.repeat(43);
const photoDir = join(dirname(fileURLToPath(import.meta.url)), '../../harness/photos');
const photo = (id: string) => SharePaths.photo(TOKEN, id);

const TRIP: SharedTrip = {
  name: 'Atlantic to Pacific',
  startDate: '2024-05-02',
  endDate: '2024-06-20',
  includeStories: true,
  allowIndexing: false,
  expiresAt: null,
  destinations: [
    {
      _id: 'lisbon',
      name: 'Lisbon, Portugal',
      latitude: 38.7223,
      longitude: -9.1393,
      startDate: '2024-05-02',
      endDate: '2024-05-09',
      photos: [photo('lisbon-1'), photo('lisbon-2'), photo('lisbon-3')],
      story: 'Trams up the hills and custard tarts at every corner.',
      journal: 'Day one: lost in Alfama.\nDay two: found again.',
    },
    {
      _id: 'reykjavik',
      name: 'Reykjavik, Iceland',
      latitude: 64.1466,
      longitude: -21.9426,
      startDate: '2024-05-20',
      endDate: '2024-05-24',
      photos: [],
      story: '',
      journal: '',
    },
    {
      _id: 'kyoto',
      name: 'Kyoto, Japan',
      latitude: 35.0116,
      longitude: 135.7681,
      startDate: '2024-06-10',
      endDate: '2024-06-20',
      photos: [photo('kyoto-1'), photo('kyoto-2')],
      story: 'Temples at dawn.',
      journal: '',
    },
  ],
};

/** The trip as a link without stories shows it: no `story`, no `journal`. */
const WITHOUT_STORIES: SharedTrip = {
  ...TRIP,
  includeStories: false,
  destinations: TRIP.destinations.map(({ story: _s, journal: _j, ...d }) => d),
};

type Answer = { status: number; json?: unknown } | 'hold';

interface SharedPage {
  context: BrowserContext;
  page: Page;
  /** Paths of every request under /api the page made. */
  apiPaths: string[];
  /** Lets a held answer go. */
  release: () => void;
}

/** The harness page for TOKEN, the trip read answered by `answer` (read at each request). */
async function openShared(
  browser: Browser,
  harness: MapHarness,
  answer: Answer | (() => Answer),
  width = 1440,
): Promise<SharedPage> {
  const context = await browser.newContext({
    baseURL: harness.url,
    viewport: { width, height: width < 640 ? 812 : 900 },
  });
  const apiPaths: string[] = [];
  context.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path.startsWith('/api/')) apiPaths.push(path);
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route(`**${SharePaths.api(TOKEN)}`, async (route: Route) => {
    const now = typeof answer === 'function' ? answer() : answer;
    if (now === 'hold') {
      await held;
      return route.fulfill({ status: 200, json: TRIP });
    }
    return route.fulfill({ status: now.status, json: now.json });
  });
  await context.route(`**${SharePaths.apiPrefix}/${TOKEN}/photos/*`, (route: Route) => {
    const id = new URL(route.request().url()).pathname.split('/').pop()!;
    return route.fulfill({
      status: 200,
      contentType: 'image/svg+xml',
      body: readFileSync(join(photoDir, `${id}.svg`)),
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  await page.goto(`/shared.html?token=${TOKEN}`);
  return { context, page, apiPaths, release };
}

const mapReady = (page: Page) =>
  page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 45_000 });

/** The keyless map's camera is idle (no move in progress, the last frame drawn). */
const cameraIdle = (page: Page) =>
  page.locator('.keyless-map[data-camera="idle"]').waitFor({ timeout: 45_000 });

/** Whether a pin is drawn inside the map's box. */
async function pinInView(page: Page, id: string): Promise<boolean> {
  const map = (await page.locator('.keyless-map').boundingBox())!;
  const pin = await page.locator(`.map-pin[data-marker-id="${id}"]`).boundingBox();
  if (!pin) return false;
  const x = pin.x + pin.width / 2;
  const y = pin.y + pin.height;
  return x >= map.x && x <= map.x + map.width && y >= map.y && y <= map.y + map.height;
}

/** Every carousel photo on the page has loaded. */
const photosLoaded = (page: Page) =>
  page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('.shared-destination img')).every(
      (img) => img.complete && img.naturalWidth > 0,
    ),
  );

describe('the public page of a share link (harness, headless Chromium)', () => {
  const started = useHarness();

  it('says it is loading, then shows the trip: name, dates, pins, carousels, stories', async () => {
    const { context, page, apiPaths, release } = await openShared(
      started.browser(),
      started.harness(),
      'hold',
    );
    const loading = page.getByRole('status').filter({ hasText: 'Loading the trip…' });
    await loading.waitFor();
    expect(await page.getByRole('main').getAttribute('aria-busy')).toBe('true');
    release();

    await page.getByRole('heading', { level: 1, name: 'Atlantic to Pacific' }).waitFor();
    expect(await loading.count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Atlantic to Pacific · Wayfarer');
    const meta = page.locator('.shared-meta');
    expect(await meta.textContent()).toContain('3 destinations · 5 photos');
    expect(await meta.textContent()).toMatch(/2024/);

    // the map: one pin per destination, far enough apart not to cluster
    await mapReady(page);
    await cameraIdle(page);
    await expect.poll(() => page.locator('.map-pin').count()).toBe(3);
    expect(await page.locator('.map-pin[data-kind="shared"]').count()).toBe(3);

    // each destination: heading, its carousel (photos from the link), story and journal
    const destinations = page.locator('.shared-destination');
    expect(await destinations.count()).toBe(3);
    const lisbon = page.getByRole('article', { name: 'Lisbon, Portugal' });
    const carousel = lisbon.getByRole('group', { name: 'Photos of Lisbon, Portugal' });
    await carousel.getByRole('img', { name: 'Lisbon, Portugal, photo 1 of 3' }).waitFor();
    await carousel.getByRole('button', { name: 'Next photo' }).click();
    await carousel.getByRole('img', { name: 'Lisbon, Portugal, photo 2 of 3' }).waitFor();
    expect(await lisbon.textContent()).toContain('custard tarts');
    expect(await lisbon.locator('.shared-writing p').last().textContent()).toBe(
      'Day one: lost in Alfama.\nDay two: found again.',
    );
    const reykjavik = page.getByRole('article', { name: 'Reykjavik, Iceland' });
    expect(
      await reykjavik.getByRole('group', { name: 'Photos of Reykjavik, Iceland' }).count(),
    ).toBe(0);
    expect(await reykjavik.locator('.shared-writing').count()).toBe(0);
    await photosLoaded(page);

    // a pin opens the shared variant of the info window: dates and photos, no owner
    await page.locator('.map-pin[data-marker-id="kyoto"]').click();
    const info = page.getByRole('dialog', { name: 'Kyoto, Japan' });
    await info.waitFor();
    await info.getByRole('img', { name: 'Kyoto, Japan, photo 1 of 2' }).waitFor();
    expect(await info.locator('.info-person').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => info.count()).toBe(0);

    // "Show on the map" by keyboard brings the map to the pin
    expect(await pinInView(page, 'lisbon')).toBe(true);
    await page.getByRole('button', { name: 'Show on the map: Reykjavik, Iceland' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => pinInView(page, 'lisbon')).toBe(false);
    await cameraIdle(page);
    expect(await pinInView(page, 'reykjavik')).toBe(true);

    // only the link's read and its photos: no session-only call
    expect(apiPaths.length).toBeGreaterThan(0);
    expect(apiPaths.every((p) => p.startsWith(`${SharePaths.apiPrefix}/${TOKEN}`))).toBe(true);
    await context.close();
  });

  it('shows no stories or journals when the link leaves them out', async () => {
    const { context, page } = await openShared(started.browser(), started.harness(), {
      status: 200,
      json: WITHOUT_STORIES,
    });
    await page.getByRole('heading', { level: 1, name: 'Atlantic to Pacific' }).waitFor();
    expect(await page.locator('.shared-destination').count()).toBe(3);
    expect(await page.locator('.shared-writing').count()).toBe(0);
    expect(await page.getByRole('main').textContent()).not.toContain('custard tarts');
    await context.close();
  });

  it('a gone link says so, with a way to the landing page', async () => {
    const { context, page } = await openShared(started.browser(), started.harness(), {
      status: 404,
      json: { error: 'not_found', message: ShareMessages.linkGone },
    });
    await page.getByRole('heading', { level: 1, name: ShareMessages.linkGone }).waitFor();
    expect(await page.locator('.keyless-map, .map-pin').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Discover Wayfarer' }).click();
    await page.getByTestId('elsewhere').waitFor();
    await context.close();
  });

  it('a failed load offers to try again, which loads the trip', async () => {
    let answer: Answer = {
      status: 503,
      json: { error: 'unavailable', message: 'Down for a moment.' },
    };
    const { context, page } = await openShared(started.browser(), started.harness(), () => answer);
    await page.getByRole('heading', { level: 1, name: 'The trip could not be loaded.' }).waitFor();
    answer = { status: 200, json: TRIP };
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Atlantic to Pacific' }).waitFor();
    await context.close();
  });

  it('lays out at 1440 and 375 px wide without overflowing', async () => {
    for (const width of [1440, 375]) {
      const answer = { status: 200, json: TRIP };
      const { context, page } = await openShared(
        started.browser(),
        started.harness(),
        answer,
        width,
      );
      await page.getByRole('heading', { level: 1, name: 'Atlantic to Pacific' }).waitFor();
      await mapReady(page);
      await cameraIdle(page);
      await photosLoaded(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await screenshot(page, `shared-trip-${width}`);
      await page.getByRole('article', { name: 'Lisbon, Portugal' }).scrollIntoViewIfNeeded();
      await screenshot(page, `shared-trip-destination-${width}`);
      await context.close();
    }
  });
});
