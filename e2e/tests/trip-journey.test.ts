import { describe, expect, it } from 'vitest';
import { signUp, withServiceDown } from '../support/api';
import {
  animationsDone,
  baseUrl,
  makePng,
  mapIdle,
  screenshot,
  useBrowser,
} from '../support/browser';
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

/**
 * One trip's whole life in headless Chromium against the real stack: added with two
 * destinations and a photo, shown on the map, its journal kept (the journal service down, then
 * up), and deleted (the trips service down, then up).
 */

describe('trips, trip detail, add trip and the journal box', () => {
  const browser = useBrowser();

  it('adds a trip with two destinations and a photo, shows it on the map, keeps a journal and deletes it', async () => {
    const account = await signUp('Ada Traveller');
    const { context, page } = await openAs(browser(), account);
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
});
