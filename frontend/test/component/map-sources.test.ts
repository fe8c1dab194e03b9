import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readView, screenshot, settledView, useHarness, waitForMap } from './support/harness';

/**
 * What the map asks the network for, in headless Chromium on the harness page: nothing off the
 * machine in keyless mode, the Google provider's script when a key is configured, and the place
 * autocomplete's searches (the map itself: map.test.ts).
 */

/** The harness's fixture position of Reykjavík (frontend/harness/fixtures.ts). */
const REYKJAVIK = { lat: 64.1466, lng: -21.9426 };
const dialog = (page: Page) => page.getByRole('dialog');

describe("the map's sources in headless Chromium (harness)", () => {
  const started = useHarness();

  it('sends no request off the machine in keyless mode', async () => {
    const { context, page, requests } = await started.open({ width: 1440 });
    await waitForMap(page);
    await settledView(page);
    await page.evaluate(() => window.__map!.select('lisbon'));
    await dialog(page).getByRole('button', { name: 'Next photo' }).click();
    await page.keyboard.press('Escape');
    await settledView(page);
    await page.getByRole('button', { name: 'Reykjavík, Iceland', exact: true }).click();
    await expect.poll(async () => (await readView(page)).lat).toBeCloseTo(REYKJAVIK.lat, 1);
    await settledView(page);
    const urls = requests.map((r) => r.url()).filter((u) => /^(https?|wss?):/.test(u));
    expect(urls.length).toBeGreaterThan(5);
    const offMachine = urls.filter(
      (u) => !['127.0.0.1', 'localhost'].includes(new URL(u).hostname),
    );
    expect(offMachine).toEqual([]);
    // the keyless page never loads the Google provider's chunk
    expect(urls.filter((u) => /GoogleMapView/.test(u))).toEqual([]);
    await context.close();
  });

  it('chooses Google when /runtime-config.json has a key: loading, then the error after retries', async () => {
    const { context, page, requests } = await started.open({
      width: 1440,
      query: 'retryBaseMs=50',
      runtimeKey: 'test-key',
    });
    await expect.poll(() => page.getByText('Loading Google Maps...').count()).toBe(1);
    await screenshot(page, 'map-google-loading-1440');
    const alert = page.getByRole('alert').filter({ hasText: 'Error loading Google Maps' });
    await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
    await screenshot(page, 'map-google-error-1440');
    const scripts = requests
      .map((r) => r.url())
      .filter((u) => u.startsWith('https://maps.googleapis.com/maps/api/js'));
    // the first try and 3 retries, each with the key and the places library
    expect(scripts).toHaveLength(4);
    for (const url of scripts) {
      const params = new URL(url).searchParams;
      expect(params.get('key')).toBe('test-key');
      expect(params.get('libraries')).toBe('places');
    }
    expect(requests.some((r) => /GoogleMapView/.test(r.url()))).toBe(true);
    expect(requests.some((r) => /KeylessMap/.test(r.url()))).toBe(false);
    await context.close();
  });

  it('place autocomplete: debounced search, arrows + Enter pick, empty and invalid states', async () => {
    const { context, page, requests } = await started.open({ width: 1440 });
    const queries: string[] = [];
    await context.route('**/api/places?**', (route) => {
      const query = new URL(route.request().url()).searchParams.get('query') ?? '';
      queries.push(query);
      const places = query.toLowerCase().startsWith('por')
        ? [
            {
              id: 1,
              name: 'Porto',
              country: 'PT',
              latitude: 41.1579,
              longitude: -8.6291,
              population: 237591,
              label: 'Porto, Portugal',
            },
            {
              id: 2,
              name: 'Portland',
              country: 'US',
              latitude: 45.5152,
              longitude: -122.6784,
              population: 652503,
              label: 'Portland, Oregon, United States',
            },
          ]
        : [];
      return route.fulfill({ json: { places } });
    });
    await waitForMap(page);
    const input = page.getByRole('combobox', { name: 'Find a place' });
    // one key event after the other, with no pause: well inside the debounce even on a loaded
    // machine (a 40 ms pause between keys once stretched past it under a full CI run)
    await input.pressSequentially('Por');
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBe(2);
    expect(queries).toEqual(['Por']); // typing fast sends one request
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'map-autocomplete-1440');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    await input.press('ArrowUp');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('picked').textContent())
      .toBe('Porto, Portugal (41.16, -8.63)');
    expect(await input.inputValue()).toBe('Porto, Portugal');
    expect(await input.getAttribute('aria-expanded')).toBe('false');

    await input.fill('');
    await input.pressSequentially('Zzyzx', { delay: 20 });
    await expect
      .poll(() => page.locator('.place-note').filter({ hasText: 'No places found' }).count())
      .toBe(1);
    await input.press('Escape');
    await expect.poll(() => input.getAttribute('aria-expanded')).toBe('false');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('picked').textContent())
      .toBe('Please select a valid place.');
    expect(
      requests.every((r) => !/^https?:/.test(r.url()) || new URL(r.url()).hostname === '127.0.0.1'),
    ).toBe(true);
    await context.close();
  });
});
