import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTrip, signUp, type Account } from '../support/api';
import { animationsDone, makePng, mapIdle, screenshot, useBrowser } from '../support/browser';
import {
  centredOn,
  dialog,
  eventually,
  journal,
  mapReady,
  markerCount,
  openAs,
  pickPlace,
  steady,
} from '../support/pages';

/** Trips, a trip, add trip and the info window with its journal at 375 px, in Chromium. */

/** A trip made through the API (the same multipart the form sends). */
function createTripViaApi(account: Account) {
  return createTrip(
    account,
    'Nordic loop',
    [
      ['Oslo, Norway', '59.91273', '10.74609', '2025-08-02', '2025-08-06'],
      ['Stockholm, Sweden', '59.32938', '18.06871', '2025-08-07', '2025-08-11'],
      ['Copenhagen, Denmark', '55.67594', '12.56553', '2025-08-12', '2025-08-16'],
    ],
    'Fjords, ferries and the opera house roof at sunset. We walked up to Holmenkollen and watched the ski jump glow over the whole city.',
  );
}

describe('trips, trip detail, add trip and the journal box', () => {
  const browser = useBrowser();

  it('at 375 px: the list, a trip, add trip and the info window with its journal', async () => {
    const account = await signUp('Mobile Traveller');
    const trip = await createTripViaApi(account);
    const { context, page } = await openAs(browser(), account, { width: 375, height: 812 });
    await page.goto('/trips');
    await page.getByRole('link', { name: /Nordic loop/ }).waitFor();
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(3);
    await screenshot(page, 'trips-list-375');

    await page.getByRole('link', { name: /Nordic loop/ }).click();
    await page.waitForURL(`**/trip/${trip._id}`);
    await page.getByRole('heading', { name: 'Nordic loop', level: 1 }).waitFor();
    await steady(page);
    await screenshot(page, 'trips-detail-375');

    // the map is below the list here: choosing a destination brings it into view, zoomed
    await mapReady(page);
    await page.locator('.destination-item').filter({ hasText: 'Stockholm' }).click();
    await eventually(async () => {
      const box = await page.locator('.map-column').boundingBox();
      // entirely in view, below the top bar
      return box !== null && box.y >= 60 && box.y + box.height <= 812 + 1;
    }).toBe(true);
    const stockholm = await centredOn(page, 'Stockholm', ['x']);
    expect(stockholm.x).toBeLessThan(20);
    await animationsDone(page);
    await screenshot(page, 'trips-detail-map-375');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Delete this trip?' }).waitFor();
    await animationsDone(page);
    await screenshot(page, 'trips-confirm-375');
    await page.getByRole('button', { name: 'No', exact: true }).click();

    // the info window as a sheet under the map, journal in view and edit modes
    await page.goto('/trips');
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(3);
    await page.locator('.map-column').scrollIntoViewIfNeeded();
    await mapIdle(page);
    const pin: Locator = page.locator('.map-pin[aria-label^="Oslo"]');
    if ((await pin.count()) === 0) {
      await page.locator('.map-cluster').first().click(); // zooms in (a click starts the move)
      await pin.waitFor();
      await mapIdle(page);
    }
    await pin.click();
    await dialog(page).getByRole('heading', { name: 'Oslo, Norway' }).waitFor();
    await journal(page).getByText('No story shared yet.').waitFor();
    await eventually(() =>
      dialog(page)
        .locator('.carousel-photo')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(96);
    await journal(page).scrollIntoViewIfNeeded();
    await steady(page);
    await screenshot(page, 'trips-info-journal-view-375');
    await journal(page).getByRole('button', { name: 'Edit journal' }).click();
    await journal(page)
      .getByRole('textbox', { name: 'Journal' })
      .fill('Midnight sun over the fjord.');
    await journal(page).locator('.journal-editor').scrollIntoViewIfNeeded();
    await screenshot(page, 'trips-info-journal-edit-375');
    await journal(page).getByRole('button', { name: 'Save journal' }).click();
    await eventually(() => journal(page).locator('.journal-text').textContent()).toBe(
      'Midnight sun over the fjord.',
    );

    await page.goto('/addTrip');
    await page.getByLabel('Trip name').fill('Weekend away');
    await pickPlace(page, 'Porto', 'Portugal');
    await page.getByLabel('Story').fill('Port wine cellars and azulejos.');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'ribeira.png', mimeType: 'image/png', buffer: makePng(80) });
    await page.getByRole('button', { name: 'Add destination' }).click();
    await eventually(() => page.locator('.draft-item').count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'trips-add-375');
    await page.locator('.draft-item').scrollIntoViewIfNeeded();
    await screenshot(page, 'trips-add-destination-375');
    await context.close();
  });
});
