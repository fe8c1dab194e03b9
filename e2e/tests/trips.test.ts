import { describe, expect, it } from 'vitest';
import { signUp, withServiceDown } from '../support/api';
import { makePng, mapIdle, screenshot, useBrowser } from '../support/browser';
import {
  dialog,
  eventually,
  mapReady,
  markerCount,
  openAs,
  pickPlace,
  steady,
} from '../support/pages';

/**
 * Trips, the trip page and add trip in headless Chromium against the real stack: gateway,
 * auth, trips (MongoDB + MinIO), journal (fed by trips' Kafka events) and places. The whole
 * journey of one trip is trip-journey.test.ts; the small screen, trips-375.test.ts.
 */

describe('trips, trip detail, add trip and the journal box', () => {
  const browser = useBrowser();

  it('a new user: empty state, and a destination must be picked from the suggestions', async () => {
    const account = await signUp('Empty Traveller');
    for (const width of [1440, 375]) {
      const { context, page } = await openAs(browser(), account, { width, height: 900 });
      await page.goto('/trips');
      await eventually(() =>
        page.getByText('No trips available. Click "Add Trip" to create one!').count(),
      ).toBe(1);
      await mapReady(page);
      expect(await markerCount(page)).toBe(0);
      await steady(page);
      await screenshot(page, `trips-empty-${width}`);
      await context.close();
    }

    const { context, page } = await openAs(browser(), account);
    await page.goto('/');
    await page.getByRole('link', { name: 'Add Trip' }).click();
    await page.waitForURL('**/addTrip');
    await page.getByRole('heading', { name: 'Add Trip' }).waitFor();
    await steady(page);

    // the date range defaults to today for both ends
    const today = await page.evaluate(() => {
      const d = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    });
    expect(await page.getByLabel('Start date').inputValue()).toBe(today);
    expect(await page.getByLabel('End date').inputValue()).toBe(today);
    expect(await page.getByLabel('Story').getAttribute('placeholder')).toBe('Share a story...');
    await screenshot(page, 'trips-add-empty-1440');

    // "Add destination" with nothing picked
    await page.getByRole('button', { name: 'Add destination' }).click();
    const invalid = page
      .getByRole('alert')
      .filter({ hasText: 'Please select a valid destination.' });
    await eventually(() => invalid.count()).toBe(1);

    // typed text without choosing a suggestion, then Enter
    const input = page.getByRole('combobox', { name: 'Destination' });
    await input.pressSequentially('Par', { delay: 25 });
    await eventually(() => invalid.count()).toBe(0); // typing clears the message
    await page.getByRole('option').first().waitFor();
    await input.press('Escape');
    await input.press('Enter');
    await eventually(() => invalid.count()).toBe(1);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'trips-add-invalid-1440');

    // typed text and "Add destination" without choosing: still refused, nothing listed
    await page.getByRole('button', { name: 'Add destination' }).click();
    await eventually(() => invalid.count()).toBe(1);
    expect(await page.locator('.draft-item').count()).toBe(0);
    await context.close();
  });

  it('shows the spec message when the trips cannot be fetched, and a clear not-found page', async () => {
    const account = await signUp('Unlucky Traveller');
    const { context, page } = await openAs(browser(), account);
    // the trips service really is down: the gateway answers 503 and the list says so
    await withServiceDown('trips', async () => {
      await page.goto('/trips');
      await eventually(() =>
        page.getByRole('alert').filter({ hasText: 'Error: Failed to fetch trips' }).count(),
      ).toBe(1);
    });
    await page.getByRole('button', { name: 'Try again' }).click();
    await eventually(() =>
      page.getByText('No trips available. Click "Add Trip" to create one!').count(),
    ).toBe(1);

    await page.goto('/trip/0123456789abcdef01234567');
    await page.getByRole('heading', { name: 'Trip not found.' }).waitFor();
    await steady(page);
    expect(await page.getByRole('link', { name: 'Back to Trips' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'trips-not-found-1440');
    await context.close();
  });

  it('shows the server message when saving a trip fails, and keeps the form', async () => {
    const account = await signUp('Stubborn Traveller');
    const { context, page } = await openAs(browser(), account);
    await page.goto('/addTrip');
    await page.getByLabel('Trip name').fill('Doomed');
    await pickPlace(page, 'Lisbon', 'Portugal');
    await page.getByRole('button', { name: 'Add destination' }).click();
    // the trips service really is down: the server's message shows and the form is kept
    await withServiceDown('trips', async () => {
      await page.getByRole('button', { name: 'Save trip' }).click();
      await eventually(() =>
        page
          .getByRole('alert')
          .filter({
            hasText: 'The trips service is unavailable right now. Please try again shortly.',
          })
          .count(),
      ).toBe(1);
    });
    expect(page.url()).toMatch(/\/addTrip$/);
    expect(await page.locator('.draft-item').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Save trip' }).count()).toBe(1);
    expect(await page.getByLabel('Trip name').isEnabled()).toBe(true);
    await context.close();
  });

  it('a new trip shows its photos at once and switches them to their display variants without a reload', async () => {
    const account = await signUp('Photo Traveller');
    const { context, page } = await openAs(browser(), account);
    const photoAnswers: { url: string; status: number; cache: string | null }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/photos/')) {
        photoAnswers.push({
          url: url.pathname + url.search,
          status: response.status(),
          cache: response.headers()['cache-control'] ?? null,
        });
      }
    });
    await page.goto('/addTrip');
    await mapReady(page);
    await page.getByLabel('Trip name').fill('Big photos');
    await pickPlace(page, 'Paris', 'France');
    // 2000 px wide: the display variant is 1600 px (inside 1600x1600)
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'wide.png', mimeType: 'image/png', buffer: makePng(2000) },
      { name: 'small.png', mimeType: 'image/png', buffer: makePng(90) },
    ]);
    await page.getByRole('img', { name: 'small.png' }).waitFor();
    await page.getByRole('button', { name: 'Add destination' }).click();
    await eventually(() => page.locator('.draft-item').count()).toBe(1);
    // set in this document: still there at the end means no reload happened
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

    // the trip page's own loads are held until the stand-in has been seen
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trips/*', async (route) => {
      if (route.request().method() === 'GET') await held;
      return route.continue();
    });
    await page.getByRole('button', { name: 'Save trip' }).click();
    await page.waitForURL(/\/trip\/[0-9a-f]{24}$/, { timeout: 30_000 });
    const tripId = page.url().split('/').pop()!;

    // at once: the created trip's photo under its pending URL, and it loads
    const thumb = page.locator('.destination-item .trip-thumb img');
    await thumb.waitFor();
    const pendingSrc = await thumb.getAttribute('src');
    expect(pendingSrc).toMatch(new RegExp(`^/api/photos/${tripId}/[0-9a-f]{32}\\?pending=1$`));
    await eventually(() =>
      thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    const plainSrc = pendingSrc!.replace('?pending=1', '');

    // then the page follows the trip: the variant replaces it, without a reload
    release();
    await eventually(() => thumb.getAttribute('src'), 30_000).toBe(plainSrc);
    await eventually(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
    await page.unroute('**/api/trips/*');
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    // both URLs answered (the pending one with the stand-in, uncached, unless the variant was
    // ready by then: test/integration/variants.test.ts pins the stand-in down); the variant
    // is cacheable
    expect(photoAnswers.map((a) => [a.url, a.status])).toContainEqual([pendingSrc, 200]);
    expect(photoAnswers).toContainEqual({
      url: plainSrc,
      status: 200,
      cache: 'private, max-age=86400',
    });

    // the list reads the summary; its pin's carousel loads every photo of the trip
    await page.getByRole('link', { name: 'Back to Trips' }).click();
    await page.waitForURL('**/trips');
    const card = page.getByRole('link', { name: /Big photos/ });
    await card.waitFor();
    await eventually(() => card.locator('img').getAttribute('src')).toBe(plainSrc);
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(1);
    await mapIdle(page);
    await page.locator('.map-pin[aria-label^="Paris"]').click();
    await dialog(page).getByRole('heading', { name: 'Paris, France' }).waitFor();
    const photo = dialog(page).locator('.carousel-photo');
    await eventually(() => dialog(page).locator('.carousel-count').textContent()).toBe('1 / 2');
    expect(await photo.getAttribute('src')).toBe(plainSrc);
    await eventually(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
    await dialog(page).getByRole('button', { name: 'Next photo' }).click();
    await eventually(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(90);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    await context.close();
  });
});
