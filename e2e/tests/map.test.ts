import { describe, expect, it } from 'vitest';
import { placesSearchUrl, suggestionsFromApi, toPlaceChoice } from '@wayfarer/frontend/map/places';
import { animationsDone, baseUrl, screenshot, uniqueEmail, useBrowser } from '../support/browser';

/**
 * The map in the real app against the real stack. The map component itself (fit, clusters,
 * info windows, carousel, provider choice, autocomplete) is tested on its harness page, fed
 * fixtures, by frontend/test/component/map.test.ts.
 */

const WIDTHS = [375, 800, 1440] as const;

describe('the map in the real layout shell (e2e stack)', () => {
  const browser = useBrowser();

  it('the gazetteer answer through the gateway is what the autocomplete reads', async () => {
    const form = new FormData();
    form.append('name', 'Places Person');
    form.append('email', uniqueEmail('places'));
    form.append('password', 'a long password');
    const res = await fetch(`${baseUrl()}/api/register`, { method: 'POST', body: form });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='))!;
    const answer = await fetch(`${baseUrl()}${placesSearchUrl('Lisbon', 3)}`, {
      headers: { cookie: cookie.split(';', 1)[0]! },
    });
    expect(answer.status).toBe(200);
    const suggestions = suggestionsFromApi(await answer.json());
    expect(suggestions.length).toBeGreaterThan(0);
    const choice = toPlaceChoice(suggestions[0]!);
    expect(choice?.name).toBe('Lisbon');
    expect(choice?.label).toMatch(/^Lisbon, /);
    expect(choice?.latitude).toBeCloseTo(38.72, 0);
    expect(choice?.longitude).toBeCloseTo(-9.13, 0);
  });

  it('shows the empty dark map at /trips, with no request off the machine', async () => {
    const form = new FormData();
    form.append('name', 'Map Person');
    form.append('email', uniqueEmail('map'));
    form.append('password', 'a long password');
    const res = await fetch(`${baseUrl()}/api/register`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='))!;
    const [name, value] = cookie.split(';', 1)[0]!.split('=');

    for (const width of WIDTHS) {
      const context = await browser().newContext({
        baseURL: baseUrl(),
        viewport: { width, height: 900 },
      });
      await context.addCookies([{ name: name!, value: value!, url: baseUrl() }]);
      const requests: string[] = [];
      context.on('request', (r) => requests.push(r.url()));
      const page = await context.newPage();
      await page.goto('/trips');
      // the trips have been fetched (none), and the map has drawn them (none)
      await page.getByText('No trips available. Click "Add Trip" to create one!').waitFor();
      await page.locator('.keyless-map[data-ready="true"][data-camera="idle"]').waitFor({
        timeout: 30_000,
      });
      expect(await page.locator('.map-pin, .map-cluster').count()).toBe(0);
      // zoom buttons only
      expect(await page.locator('.maplibregl-ctrl button').count()).toBe(2);
      await screenshot(page, `map-shell-trips-${width}`);
      if (width < 1024) {
        await page.locator('.map-column').scrollIntoViewIfNeeded();
        await animationsDone(page);
        await screenshot(page, `map-shell-trips-${width}-map`);
      }
      const http = requests.filter((u) => /^https?:/.test(u));
      expect(http.filter((u) => new URL(u).hostname !== 'localhost')).toEqual([]);
      expect(http.filter((u) => /GoogleMapView/.test(u))).toEqual([]);
      await context.close();
    }
  });
});
