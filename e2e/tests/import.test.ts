import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ImportMessages, type TripSummary } from '@wayfarer/contracts';
import { api, createTrip, signUp } from '../support/api';
import { animationsDone, screenshot, useBrowser } from '../support/browser';
import { eventually, openAs } from '../support/pages';

/**
 * The Import on /trips in headless Chromium against the real stack: a trip's GPX
 * exported through the gateway and imported back as a new trip (the list reloads), the upload's
 * progress bar under a throttled network, and a refusal shown with the service's message. The
 * formats and hostile files are covered in depth by trips' own tests.
 */

const PLACES = [
  ['Lisbon, Portugal', '38.7223', '-9.1393', '2025-05-02', '2025-05-05'],
  ['Porto, Portugal', '41.1579', '-8.6291', '2025-05-06', '2025-05-09'],
] as const;

const fileInput = (page: Page) => page.getByTestId('import-file');
const status = (page: Page) => page.locator('.import-region');
const tripNames = (page: Page) =>
  page.getByRole('list', { name: 'Your trips' }).locator('.trip-card-name').allTextContents();

/** A GeoJSON of one place, padded with blanks to `bytes` (valid JSON: a slow upload to watch). */
function paddedGeoJson(bytes: number): Buffer {
  const doc = JSON.stringify({
    type: 'FeatureCollection',
    name: 'Slow upload',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [10.75, 59.91] },
        properties: { name: 'Oslo', date: '2025-08-10' },
      },
    ],
  });
  return Buffer.concat([Buffer.from(doc), Buffer.alloc(bytes - doc.length, 0x20)]);
}

describe('importing trips on /trips', () => {
  const browser = useBrowser();

  it('a GPX exported from a trip comes back as a new trip; progress, result and a refusal are shown', async () => {
    const owner = await signUp('Importing Traveller');
    const trip = await createTrip(owner, 'Portugal by train', PLACES, 'Trams and hills.', 0);
    const gpx = await api(`/api/trips/${trip._id}/export.gpx`, owner);
    expect(gpx.status).toBe(200);
    const gpxBytes = Buffer.from(await gpx.arrayBuffer());

    const { context, page } = await openAs(browser(), owner);
    await page.goto('/trips');
    await eventually(() => tripNames(page)).toEqual(['Portugal by train']);
    const button = page.getByRole('button', { name: 'Import' });
    await button.waitFor();
    await animationsDone(page);
    await screenshot(page, 'import-button-1440');

    // the file picker opens from the button (a chooser event), and takes the GPX
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
    expect(chooser.isMultiple()).toBe(false);
    await chooser.setFiles({
      name: 'portugal.gpx',
      mimeType: 'application/gpx+xml',
      buffer: gpxBytes,
    });
    await eventually(() => status(page).textContent(), 30_000).toContain('Imported 1 trip.');
    // the list reloaded: the imported trip beside the original, its destinations the same
    await eventually(() => tripNames(page)).toHaveLength(2);
    const mine = (await (await api('/api/mytrips', owner)).json()) as TripSummary[];
    const copy = mine.find((t) => t._id !== trip._id)!;
    expect(copy.name).toBe('Portugal by train');
    // each place's end date comes back from our GPX's <extensions>: the same dates
    expect([copy.startDate, copy.endDate]).toEqual(['2025-05-02', '2025-05-09']);
    expect(copy.destinations.map((d) => [d.startDate, d.endDate])).toEqual(
      PLACES.map(([, , , start, end]) => [start, end]),
    );
    expect(copy.destinations.map((d) => [d.name, d.latitude, d.longitude])).toEqual([
      ['Lisbon, Portugal', 38.7223, -9.1393],
      ['Porto, Portugal', 41.1579, -8.6291],
    ]);
    await animationsDone(page);
    await screenshot(page, 'import-result-1440');

    // a slow upload (the network throttled to 256 kB/s): the bar and its percentage move
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await fileInput(page).setInputFiles({
      name: 'slow.geojson',
      mimeType: 'application/geo+json',
      buffer: paddedGeoJson(2 * 1024 * 1024),
    });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await eventually(
      async () => Number(await bar.getAttribute('aria-valuenow')),
      20_000,
    ).toBeGreaterThan(10);
    expect(await status(page).getAttribute('aria-live')).toBe('polite');
    expect(await status(page).textContent()).toMatch(/\d+%Importing “slow.geojson”…/);
    await screenshot(page, 'import-progress-1440');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await eventually(() => status(page).textContent(), 60_000).toContain('Imported 1 trip.');
    await eventually(() => tripNames(page)).toHaveLength(3);

    // a text file: the service's message in the page, as an alert; nothing more in the list
    await page.setViewportSize({ width: 375, height: 812 });
    await fileInput(page).setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Day 1: Lisbon\nDay 2: Porto\n'),
    });
    const alert = page.getByRole('alert');
    await eventually(() => alert.textContent(), 30_000).toBe(ImportMessages.unsupported);
    expect(await tripNames(page)).toHaveLength(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await animationsDone(page);
    await screenshot(page, 'import-error-375');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await eventually(() => alert.count()).toBe(0);
    await context.close();
  });
});
