import { TripEditMessages } from '@wayfarer/contracts';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp, type Account } from '../support/api';
import { animationsDone, makePng, mapIdle, screenshot, useBrowser } from '../support/browser';
import { eventually, mapReady, openAs, pickPlace } from '../support/pages';

/**
 * Editing a trip (`/trip/:id/edit`) in headless Chromium against the real stack: the
 * gateway, trips (MongoDB + MinIO, versions in ETag / If-Match) and the map.
 */

interface ApiTrip {
  _id: string;
  name: string;
  destinations: { _id: string; name: string; photos: string[] }[];
}

const PLACES = [
  ['Oslo, Norway', '59.91273', '10.74609', '2025-08-02', '2025-08-06'],
  ['Stockholm, Sweden', '59.32938', '18.06871', '2025-08-07', '2025-08-11'],
  ['Copenhagen, Denmark', '55.67594', '12.56553', '2025-08-12', '2025-08-16'],
] as const;

/** A trip of three destinations with two photos each, made through the API. */
const nordicLoop = (account: Account) => createTrip(account, 'Nordic loop', PLACES, 'Fjords.', 2);

async function readTrip(account: Account, id: string): Promise<{ trip: ApiTrip; etag: string }> {
  const res = await api(`/api/trips/${id}`, account);
  expect(res.status).toBe(200);
  return { trip: (await res.json()) as ApiTrip, etag: res.headers.get('etag') ?? '' };
}

const photosOf = (trip: ApiTrip, name: string) =>
  trip.destinations.find((d) => d.name.startsWith(name))?.photos.length;

/** Every photo of the form's list has loaded (for a screenshot). */
async function photosLoaded(page: Page) {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('.draft-item img')).every(
      (img) => img.complete && img.naturalWidth > 0,
    ),
  );
}

const item = (page: Page, name: string) => page.locator('.draft-item').filter({ hasText: name });

describe('editing a trip', () => {
  const browser = useBrowser();

  it('renames a trip, adds a destination and a photo to a saved one, removes a photo', async () => {
    const account = await signUp('Editing Traveller');
    const created = await nordicLoop(account);
    const { context, page } = await openAs(browser(), account);
    await page.goto(`/trip/${created._id}`);
    await page.getByRole('heading', { name: 'Nordic loop', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`**/trip/${created._id}/edit`);
    await page.getByRole('heading', { name: 'Edit Trip', level: 1 }).waitFor();

    // prefilled from the saved trip
    const tripName = page.getByLabel('Trip name');
    await eventually(() => tripName.inputValue()).toBe('Nordic loop');
    expect(await page.getByLabel('Start date').inputValue()).toBe('2025-08-02');
    expect(await page.getByLabel('End date').inputValue()).toBe('2025-08-16');
    expect(await page.locator('.draft-item').count()).toBe(3);
    const osloPhotos = page.getByRole('list', { name: 'Saved photos of Oslo, Norway' });
    expect(await osloPhotos.getByRole('img').count()).toBe(2);
    await eventually(() =>
      osloPhotos
        .getByRole('img')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(96);
    await mapReady(page);
    await mapIdle(page);
    await photosLoaded(page);
    await animationsDone(page);
    await screenshot(page, 'trip-edit-1440');

    // a saved photo: asked first (Keep has the focus and keeps it), then removed at once
    const question = page.getByRole('alertdialog', { name: 'Remove this photo?' });
    await page.getByRole('button', { name: 'Remove photo 1 of Oslo, Norway' }).click();
    await question.waitFor();
    const keep = question.getByRole('button', { name: 'Keep' });
    await eventually(() => keep.evaluate((el) => el === document.activeElement)).toBe(true);
    await animationsDone(page);
    await screenshot(page, 'trip-edit-remove-photo-1440');
    await page.keyboard.press('Escape');
    await eventually(() => question.isVisible()).toBe(false);
    expect(await osloPhotos.getByRole('img').count()).toBe(2);
    await page.getByRole('button', { name: 'Remove photo 1 of Oslo, Norway' }).click();
    await question.getByRole('button', { name: 'Remove' }).click();
    await eventually(() => question.isVisible()).toBe(false);
    await eventually(() => osloPhotos.getByRole('img').count()).toBe(1);
    expect(photosOf((await readTrip(account, created._id)).trip, 'Oslo')).toBe(1);

    // a new name, a new destination, a photo for Stockholm
    await tripName.fill('Nordic summer');
    await pickPlace(page, 'Bergen', 'Norway');
    await page.getByLabel('Story').fill('Rain and fish market.');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await eventually(() => page.locator('.draft-item').count()).toBe(4);
    await item(page, 'Stockholm')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'gamla-stan.png', mimeType: 'image/png', buffer: makePng(110) });
    await item(page, 'Stockholm').getByRole('img', { name: 'gamla-stan.png' }).waitFor();

    // Save: the patch names the version it was made to; the photo goes through the photo
    // route, held until the upload's progress has been seen
    const sent: { method: string; url: string; ifMatch: string | undefined }[] = [];
    page.on('request', (request: Request) => {
      if (['PATCH', 'POST'].includes(request.method()) && request.url().includes('/api/trips/')) {
        sent.push({
          method: request.method(),
          url: new URL(request.url()).pathname,
          ifMatch: request.headers()['if-match'],
        });
      }
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trips/*/destinations/*/photos', async (route) => {
      await held;
      return route.continue();
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Uploading...' }).waitFor();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    expect(await tripName.isDisabled()).toBe(true);
    await page.locator('.form-footer').scrollIntoViewIfNeeded();
    await screenshot(page, 'trip-edit-uploading-1440');
    release();
    await page.waitForURL(new RegExp(`/trip/${created._id}$`), { timeout: 30_000 });
    await page.unroute('**/api/trips/*/destinations/*/photos');

    // back on the trip: the change shows
    await page.getByRole('heading', { name: 'Nordic summer', level: 1 }).waitFor();
    const items = page.locator('.destination-item');
    await eventually(() => items.count()).toBe(4);
    await eventually(() => items.filter({ hasText: 'Stockholm' }).textContent()).toContain(
      '3 photos',
    );
    expect(await items.filter({ hasText: 'Oslo' }).textContent()).toContain('1 photo');
    expect(await items.nth(3).locator('.destination-name').textContent()).toBe('Bergen, Norway');

    const { trip } = await readTrip(account, created._id);
    expect(trip.name).toBe('Nordic summer');
    expect(trip.destinations.map((d) => d.name)).toEqual([
      'Oslo, Norway',
      'Stockholm, Sweden',
      'Copenhagen, Denmark',
      'Bergen, Norway',
    ]);
    expect(photosOf(trip, 'Stockholm')).toBe(3);
    const stockholmId = trip.destinations[1]!._id;
    expect(sent.map((s) => [s.method, s.url])).toEqual([
      ['PATCH', `/api/trips/${created._id}`],
      ['POST', `/api/trips/${created._id}/destinations/${stockholmId}/photos`],
    ]);
    // each names the version before it: the patch the one after the removal, the photo add
    // the patch's
    const [patchTag, addTag] = sent.map((s) => Number(/^"(\d+)"$/.exec(s.ifMatch ?? '')?.[1]));
    expect(addTag).toBe(patchTag! + 1);
    await context.close();
  });

  it('a trip changed elsewhere meanwhile: the save is refused and the trip can be reloaded (375 px)', async () => {
    const account = await signUp('Two Tabs Traveller');
    const created = await nordicLoop(account);
    const { context, page } = await openAs(browser(), account, { width: 375, height: 812 });
    await page.goto(`/trip/${created._id}/edit`);
    const tripName = page.getByLabel('Trip name');
    await eventually(() => tripName.inputValue()).toBe('Nordic loop');
    await animationsDone(page);
    await screenshot(page, 'trip-edit-375');
    await item(page, 'Oslo').scrollIntoViewIfNeeded();
    await photosLoaded(page);
    await screenshot(page, 'trip-edit-list-375');

    // another tab renames it
    const { etag } = await readTrip(account, created._id);
    const elsewhere = await api(`/api/trips/${created._id}`, account, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ name: 'Changed elsewhere' }),
    });
    expect(elsewhere.status).toBe(200);

    await tripName.fill('Mine');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: TripEditMessages.changedElsewhere });
    await conflict.waitFor();
    expect(page.url()).toMatch(/\/edit$/);
    expect(await tripName.inputValue()).toBe('Mine');
    await conflict.scrollIntoViewIfNeeded();
    await screenshot(page, 'trip-edit-conflict-375');
    expect((await readTrip(account, created._id)).trip.name).toBe('Changed elsewhere');

    await conflict.getByRole('button', { name: 'Reload the trip' }).click();
    await eventually(() => tripName.inputValue()).toBe('Changed elsewhere');
    expect(await conflict.count()).toBe(0);

    // an unknown trip
    await page.goto('/trip/0123456789abcdef01234567/edit');
    await page.getByRole('heading', { name: 'Trip not found.' }).waitFor();
    await context.close();
  });
});
