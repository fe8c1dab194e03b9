import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TripSummary } from '@wayfarer/contracts';
import { api, signUp } from '../support/api';
import { animationsDone, screenshot, useBrowser } from '../support/browser';
import { eventually, openAs } from '../support/pages';

/**
 * An import whose answer is lost on the way back (the trips service imported the file, the
 * browser saw the connection drop) in headless Chromium against the real stack: the screen
 * offers "Try again", and the retry, sent with the same Idempotency-Key, is answered the first
 * import's result: its trip is in the list once.
 */

const GEOJSON = Buffer.from(
  JSON.stringify({
    type: 'FeatureCollection',
    name: 'Fjords by ferry',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [5.3221, 60.3913] },
        properties: { name: 'Bergen', date: '2025-07-01' },
      },
    ],
  }),
);

const tripNames = (page: Page) =>
  page.getByRole('list', { name: 'Your trips' }).locator('.trip-card-name').allTextContents();

describe('an import whose answer was lost', () => {
  const browser = useBrowser();

  it('offers "Try again"; the retry answers the first import, whose trip is listed once', async () => {
    const owner = await signUp('Retrying Importer');
    const { context, page } = await openAs(browser(), owner);
    const keys: (string | undefined)[] = [];
    let loseTheAnswer = true;
    await page.route('**/api/import', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (!loseTheAnswer) return route.continue();
      loseTheAnswer = false;
      // the request reaches the stack and is answered; the page never sees the answer
      const answered = await route.fetch();
      expect(answered.status()).toBe(201);
      return route.abort('connectionreset');
    });
    await page.goto('/trips');
    await page.getByRole('button', { name: 'Import' }).waitFor();
    await page.getByTestId('import-file').setInputFiles({
      name: 'fjords.geojson',
      mimeType: 'application/geo+json',
      buffer: GEOJSON,
    });

    const tryAgain = page.getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor({ timeout: 30_000 });
    await animationsDone(page);
    await screenshot(page, 'import-try-again-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await animationsDone(page);
    await screenshot(page, 'import-try-again-375');

    await tryAgain.click();
    await eventually(() => page.locator('.import-region').textContent(), 30_000).toContain(
      'Imported 1 trip.',
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    await eventually(() => tripNames(page)).toEqual(['Fjords by ferry']);
    const mine = (await (await api('/api/mytrips', owner)).json()) as TripSummary[];
    expect(mine.map((t) => t.name)).toEqual(['Fjords by ferry']);
    await context.close();
  });
});
