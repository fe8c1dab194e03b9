import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrip, signUp, withServiceDown, type Account } from '../support/api';
import {
  animationsDone,
  baseUrl,
  launchBrowser,
  makePng,
  mapIdle,
  screenshot,
} from '../support/browser';

/**
 * Trips, trip detail, add trip and the journal box (spec sections 2-9) in headless Chromium
 * against the real stack: gateway, auth, trips (MongoDB + MinIO), journal (fed by trips'
 * Kafka events) and places.
 */

async function openAs(
  browser: Browser,
  account: Account,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  await context.addCookies([{ ...account.cookie, url: baseUrl() }]);
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  return { context, page };
}

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

/** Pins plus the markers inside clusters, as the keyless map draws them. */
async function markerCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const pins = document.querySelectorAll('.map-pin').length;
    const clustered = Array.from(document.querySelectorAll<HTMLElement>('.map-cluster')).reduce(
      (sum, el) => sum + Number(el.dataset.count ?? 0),
      0,
    );
    return pins + clustered;
  });
}

async function mapReady(page: Page) {
  await page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 30_000 });
}

/** Types into the destination autocomplete and picks the suggestion that mentions `country`. */
async function pickPlace(page: Page, query: string, country: string) {
  const input = page.getByRole('combobox', { name: 'Destination' });
  await input.fill('');
  await input.pressSequentially(query, { delay: 25 });
  const option = page.getByRole('option').filter({ hasText: query }).filter({ hasText: country });
  await option.first().waitFor();
  await option.first().click();
  await eventually(() => input.inputValue()).toBe(`${query}, ${country}`);
}

/** `expect.poll` with room for a real stack under load (vitest's default is 1 s). */
const eventually = <T>(fn: () => Promise<T> | T, timeout = 10_000) =>
  expect.poll(fn, { timeout, interval: 100 });

const dialog = (page: Page) => page.getByRole('dialog');
const journal = (page: Page) => dialog(page).getByRole('region', { name: 'Journal' });

/** Still, for a screenshot: the map's camera idle and every finite animation finished. */
async function steady(page: Page) {
  await mapIdle(page);
  await animationsDone(page);
}

/** How far (px) the tip of the pin labelled `label` is from the map's centre, or null. */
async function offCentre(page: Page, label: string) {
  const pin = await page.locator(`.map-pin[aria-label^="${label}"]`).boundingBox();
  const map = await page.locator('.keyless-map').boundingBox();
  if (!pin || !map) return null;
  return {
    x: Math.abs(pin.x + pin.width / 2 - (map.x + map.width / 2)),
    y: Math.abs(pin.y + pin.height - (map.y + map.height / 2)),
  };
}

/**
 * Waits until a list's focus has flown the map to `label` (a React effect starts the flight),
 * centred along `axes`, and the camera is idle; returns the pin's final offset.
 */
async function centredOn(page: Page, label: string, axes: readonly ('x' | 'y')[] = ['x', 'y']) {
  await eventually(async () => {
    const off = await offCentre(page, label);
    return off !== null && axes.every((axis) => off[axis] < 20);
  }).toBe(true);
  await mapIdle(page);
  return (await offCentre(page, label))!;
}

describe('trips, trip detail, add trip and the journal box', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a new user: empty state, and a destination must be picked from the suggestions', async () => {
    const account = await signUp('Empty Traveller');
    for (const width of [1440, 375]) {
      const { context, page } = await openAs(browser, account, { width, height: 900 });
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

    const { context, page } = await openAs(browser, account);
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
    const { context, page } = await openAs(browser, account);
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

  it('adds a trip with two destinations and a photo, shows it on the map, keeps a journal and deletes it', async () => {
    const account = await signUp('Ada Traveller');
    const { context, page } = await openAs(browser, account);
    await page.goto('/addTrip');
    await mapReady(page);

    await page.getByLabel('Trip name').fill('Summer in Europe');

    // destination 1: Paris, a long story and a photo
    await pickPlace(page, 'Paris', 'France');
    const longStory =
      'We landed at dawn and walked along the Seine until the bakeries opened. The light on the river was unreal, and the croissants were even better.';
    expect(longStory.length).toBeGreaterThan(100);
    await page.getByLabel('Story').fill(longStory);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'seine.png', mimeType: 'image/png', buffer: makePng(120) });
    await page.getByRole('img', { name: 'seine.png' }).waitFor();
    // a file the server could not decode is refused before upload
    await page.locator('input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await eventually(() =>
      page
        .getByRole('alert')
        .filter({ hasText: 'notes.txt is not a JPEG, PNG, WebP or GIF image.' })
        .count(),
    ).toBe(1);
    await page.getByRole('button', { name: 'Add destination' }).click();

    const drafts = page.locator('.draft-item');
    await eventually(() => drafts.count()).toBe(1);
    expect(await drafts.first().locator('.destination-story').textContent()).toBe(
      `${longStory.slice(0, 100)}...`,
    );
    expect(await drafts.first().getByRole('img', { name: 'seine.png' }).count()).toBe(1);
    // the autocomplete is empty again and focused for the next destination
    const input = page.getByRole('combobox', { name: 'Destination' });
    expect(await input.inputValue()).toBe('');
    await eventually(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    // the added destination is already a pin
    await eventually(() => markerCount(page)).toBe(1);
    await steady(page);
    await screenshot(page, 'trips-add-destination-1440');

    // destination 2: Rome, picked with the keyboard, added with Enter
    await input.pressSequentially('Rome', { delay: 25 });
    await page.getByRole('option').filter({ hasText: 'Italy' }).first().waitFor();
    await input.press('ArrowDown');
    await input.press('Enter');
    await eventually(() => input.inputValue()).toBe('Rome, Italy');
    await page.getByLabel('Story').fill('Gelato twice a day.');
    await input.press('Enter');
    await eventually(() => drafts.count()).toBe(2);
    expect(await drafts.nth(1).locator('.destination-name').textContent()).toBe('Rome, Italy');
    expect(await drafts.nth(1).locator('.destination-story').textContent()).toBe(
      'Gelato twice a day.',
    );

    // Save: 'Uploading...' while the real request is held (until the test has seen that state),
    // then the new trip opens
    let posted: { fields: string[]; contentType: string } | null = null;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trips', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const body = request.postDataBuffer()?.toString('latin1') ?? '';
      posted = {
        fields: Array.from(body.matchAll(/\sname="([^"]+)"/g), (m) => m[1]!),
        contentType: request.headers()['content-type'] ?? '',
      };
      await held;
      return route.continue();
    });
    await page.getByRole('button', { name: 'Save trip' }).click();
    const uploading = page.getByRole('button', { name: 'Uploading...' });
    await eventually(() => uploading.count()).toBe(1);
    expect(await page.getByLabel('Trip name').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add destination' }).isDisabled()).toBe(true);
    await screenshot(page, 'trips-add-uploading-1440');
    release();
    await page.waitForURL(/\/trip\/[0-9a-f]{24}$/, { timeout: 30_000 });
    await page.unroute('**/api/trips');
    const tripId = page.url().split('/').pop()!;

    expect(posted!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(posted!.fields).toEqual([
      'name',
      'startDate',
      'endDate',
      'destinations[0][name]',
      'destinations[0][startDate]',
      'destinations[0][endDate]',
      'destinations[0][latitude]',
      'destinations[0][longitude]',
      'destinations[0][story]',
      'photos[0]',
      'destinations[1][name]',
      'destinations[1][startDate]',
      'destinations[1][endDate]',
      'destinations[1][latitude]',
      'destinations[1][longitude]',
      'destinations[1][story]',
    ]);

    // the trip page: name, date range, destinations with story previews, Back to Trips
    await page.getByRole('heading', { name: 'Summer in Europe', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Trips' }).count()).toBe(1);
    const items = page.locator('.destination-item');
    await eventually(() => items.count()).toBe(2);
    expect(await items.nth(0).locator('.destination-story').textContent()).toBe(
      `${longStory.slice(0, 100)}...`,
    );
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(2);

    // choosing a destination in the list zooms the map to it
    await items.nth(1).click();
    expect(await items.nth(1).getAttribute('aria-current')).toBe('true');
    const rome = await centredOn(page, 'Rome');
    expect(rome.x).toBeLessThan(20);
    expect(rome.y).toBeLessThan(20);
    await animationsDone(page);
    await screenshot(page, 'trips-detail-1440');

    // the list: the trip with its short date range; every destination is a pin
    await page.getByRole('link', { name: 'Back to Trips' }).click();
    await page.waitForURL('**/trips');
    const card = page.getByRole('link', { name: /Summer in Europe/ });
    await card.waitFor();
    expect(await card.locator('.trip-card-dates').textContent()).toMatch(/\d{4}/);
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(2);
    await steady(page);
    await screenshot(page, 'trips-list-1440');

    // a pin: the info window with the photo carousel (the photo really loads) and the journal
    const openParis = async () => {
      await page.locator('.map-pin[aria-label^="Paris"]').click();
      await dialog(page).getByRole('heading', { name: 'Paris, France' }).waitFor();
    };
    await openParis();
    const photo = dialog(page).locator('.carousel-photo');
    await photo.waitFor();
    expect(await photo.getAttribute('src')).toMatch(
      new RegExp(`^/api/photos/${tripId}/[0-9a-f]{32}$`),
    );
    await eventually(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
    await journal(page).getByText('No story shared yet.').waitFor();
    expect(await dialog(page).getByText('Ada Traveller').count()).toBe(1);
    await steady(page);
    await screenshot(page, 'trips-info-journal-view-1440');

    // edit: the draft is seeded from the saved text (empty); losing focus cancels after 300 ms
    await journal(page).getByRole('button', { name: 'Edit journal' }).click();
    const editor = journal(page).getByRole('textbox', { name: 'Journal' });
    await eventually(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await editor.inputValue()).toBe('');
    await editor.fill('This draft is dropped.');
    await dialog(page).getByRole('heading', { name: 'Paris, France' }).click(); // focus leaves
    expect(await editor.count()).toBe(1); // not at once
    await eventually(() => editor.count()).toBe(0);
    await journal(page).getByText('No story shared yet.').waitFor();

    // Escape cancels at once and keeps the info window open
    await journal(page).getByRole('button', { name: 'Edit journal' }).click();
    await editor.fill('Also dropped.');
    await editor.press('Escape');
    await eventually(() => editor.count()).toBe(0);
    expect(await dialog(page).count()).toBe(1);

    const story =
      'Sunrise on the Seine, then the best croissant of my life.\nWorth the early flight.';
    // the journal service really is down: the save fails, the editor stays open with the message
    await withServiceDown('journal', async () => {
      await journal(page).getByRole('button', { name: 'Edit journal' }).click();
      await editor.fill(story);
      await journal(page).getByRole('button', { name: 'Save journal' }).click();
      await eventually(() =>
        journal(page)
          .getByRole('alert')
          .filter({
            hasText: 'The journal service is unavailable right now. Please try again shortly.',
          })
          .count(),
      ).toBe(1);
      expect(await editor.inputValue()).toBe(story);
    });
    await screenshot(page, 'trips-info-journal-error-1440');

    // the real save: the click on the save icon wins over the textarea's blur
    await editor.fill(story);
    await screenshot(page, 'trips-info-journal-edit-1440');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/journal') && r.request().method() === 'POST',
    );
    await journal(page).getByRole('button', { name: 'Save journal' }).click();
    const response = await saved;
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON() as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(['content', 'date', 'destinationId']);
    expect(sent.content).toBe(story);
    expect(Number.isNaN(Date.parse(String(sent.date)))).toBe(false);
    await eventually(() => editor.count()).toBe(0);
    expect(await journal(page).locator('.journal-text').textContent()).toBe(story);
    await screenshot(page, 'trips-info-journal-saved-1440');

    // it persists: reload, reopen the pin, read it
    await page.reload();
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(2);
    await mapIdle(page);
    await openParis();
    await eventually(() => journal(page).locator('.journal-text').textContent()).toBe(story);
    const destinationId = String(sent.destinationId);
    const viaApi = await fetch(`${baseUrl()}/api/journal/${destinationId}`, {
      headers: { cookie: account.header },
    });
    expect(((await viaApi.json()) as { content: string }).content).toBe(story);
    await page.keyboard.press('Escape');
    await eventually(() => dialog(page).count()).toBe(0);

    // delete: a confirm popup; No (Escape) keeps the trip; a failure is shown; Yes deletes
    await card.click();
    await page.waitForURL(`**/trip/${tripId}`);
    await page.getByRole('heading', { name: 'Summer in Europe', level: 1 }).waitFor();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this trip?' });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor();
    const no = confirm.getByRole('button', { name: 'No', exact: true });
    const yes = confirm.getByRole('button', { name: 'Yes', exact: true });
    await eventually(() => no.evaluate((el) => el === document.activeElement)).toBe(true);
    // focus stays inside: Tab from Yes wraps to No, Shift+Tab from No wraps to Yes
    await page.keyboard.press('Tab');
    expect(await yes.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await no.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await yes.evaluate((el) => el === document.activeElement)).toBe(true);
    await animationsDone(page);
    await screenshot(page, 'trips-confirm-1440');
    await page.keyboard.press('Escape');
    await eventually(() => confirm.isVisible()).toBe(false);
    expect(
      await page
        .getByRole('button', { name: 'Delete', exact: true })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    expect(page.url()).toMatch(new RegExp(`/trip/${tripId}$`));

    // the trips service really is down: the popup shows why and the trip stays
    await withServiceDown('trips', async () => {
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await yes.click();
      await eventually(() =>
        confirm
          .getByRole('alert')
          .filter({
            hasText: 'The trips service is unavailable right now. Please try again shortly.',
          })
          .count(),
      ).toBe(1);
    });
    await yes.click();
    await page.waitForURL('**/trips');
    await eventually(() =>
      page.getByText('No trips available. Click "Add Trip" to create one!').count(),
    ).toBe(1);
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: 'Trip “Summer in Europe” deleted.' })
        .count(),
    ).toBe(1);
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(0);
    expect(
      (await fetch(`${baseUrl()}/api/trips/${tripId}`, { headers: { cookie: account.header } }))
        .status,
    ).toBe(404);
    await context.close();
  });

  it('shows the server message when saving a trip fails, and keeps the form', async () => {
    const account = await signUp('Stubborn Traveller');
    const { context, page } = await openAs(browser, account);
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

  it('at 375 px: the list, a trip, add trip and the info window with its journal', async () => {
    const account = await signUp('Mobile Traveller');
    const trip = await createTripViaApi(account);
    const { context, page } = await openAs(browser, account, { width: 375, height: 812 });
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

  it('a new trip shows its photos at once and switches them to their display variants without a reload', async () => {
    const account = await signUp('Photo Traveller');
    const { context, page } = await openAs(browser, account);
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
