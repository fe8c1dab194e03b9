import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp, withServiceDown, type Account } from '../support/api';
import { mapIdle, screenshot, useBrowser } from '../support/browser';
import { dialog, eventually, mapReady, markerCount, openAs, steady } from '../support/pages';

/**
 * The bucket list screen and the itinerary editor in headless
 * Chromium against the real stack: gateway, auth, bucketlist (PostgreSQL, fed trips' Kafka
 * events), trips and places (the autocomplete).
 */

const EMPTY = 'Your bucket list is empty. Start adding places!';
const search = (page: Page) => page.getByRole('combobox', { name: 'Search for a place' });
const list = (page: Page) => page.getByRole('list', { name: 'Places to visit' });
const listed = (page: Page) => list(page).locator('.bucket-item');
const itinerary = (page: Page) => dialog(page).getByRole('region', { name: 'Itinerary' });
const itineraryItems = (page: Page) => itinerary(page).locator('.itinerary-text');
const pin = (page: Page, place: string) => page.locator(`.map-pin[aria-label^="${place}"]`);

/**
 * Types into the search box and picks the suggestion `query, country`: with the mouse, or with
 * the keyboard only (arrow keys to it, Enter).
 */
async function pickPlace(page: Page, query: string, country: string, keyboard = false) {
  const input = search(page);
  await input.fill('');
  await input.pressSequentially(query, { delay: 25 });
  const option = page.getByRole('option').filter({ hasText: query }).filter({ hasText: country });
  await option.first().waitFor();
  if (keyboard) {
    const options = await page.getByRole('option').allTextContents();
    const at = options.findIndex((o) => o.includes(query) && o.includes(country));
    for (let i = 0; i <= at; i++) await input.press('ArrowDown');
    await input.press('Enter');
  } else {
    await option.first().click();
  }
  await eventually(() => input.inputValue()).toBe(`${query}, ${country}`);
}

/** Picks a place and adds it; returns once it is listed (highlighted) and the box is empty. */
async function addPlace(page: Page, query: string, country: string, keyboard = false) {
  await pickPlace(page, query, country, keyboard);
  const posted = page.waitForResponse(
    (r) => r.url().endsWith('/api/bucketlist') && r.request().method() === 'POST',
  );
  if (keyboard)
    await search(page).press('Enter'); // a picked place: Enter adds it
  else await page.getByRole('button', { name: 'Add', exact: true }).click();
  const response = await posted;
  expect(response.status()).toBe(201);
  const sent = response.request().postDataJSON() as Record<string, unknown>;
  expect(sent).toMatchObject({ place: `${query}, ${country}`, isVisited: false });
  expect(typeof sent.latitude).toBe('number');
  expect(typeof sent.longitude).toBe('number');
  await list(page).getByText(`${query}, ${country}`).waitFor();
  await eventually(() => search(page).inputValue()).toBe('');
}

async function openPin(page: Page, place: string) {
  await mapIdle(page);
  await pin(page, place).click();
  await dialog(page).getByRole('heading', { name: place }).waitFor();
}

async function bucketList(account: Account) {
  const res = await api('/api/bucketlist', account);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    _id: string;
    place: string;
    isVisited: boolean;
    visitedByTrip?: { name: string };
  }[];
}

describe('bucket list and itineraries', () => {
  const browser = useBrowser();

  it('add two places, plan one, tick one off, and a trip to the other ticks it off by itself', async () => {
    const account = await signUp('Bucket Traveller');
    const { context, page } = await openAs(browser(), account);
    await page.goto('/bucketlist');
    await page.getByText(EMPTY).waitFor();
    await mapReady(page);
    expect(await markerCount(page)).toBe(0);
    await steady(page);
    await screenshot(page, 'bucketlist-empty-1440');

    // nothing picked: the spec's message, in the page (announced), nothing sent
    let posts = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/bucketlist') && r.method() === 'POST') posts += 1;
    });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const invalid = page.getByRole('alert').filter({ hasText: 'Please select a valid place.' });
    await invalid.waitFor();
    await search(page).fill('Kyo');
    await search(page).press('Enter'); // typed text, no suggestion picked
    await invalid.waitFor();
    expect(await search(page).getAttribute('aria-invalid')).toBe('true');
    expect(posts).toBe(0);

    // two places: each listed with a brief highlight, each a pin
    await addPlace(page, 'Kyoto', 'Japan');
    const kyoto = listed(page).filter({ hasText: 'Kyoto, Japan' });
    expect(await invalid.count()).toBe(0);
    await eventually(() => kyoto.getAttribute('class')).not.toMatch(/is-new/);
    await addPlace(page, 'Lisbon', 'Portugal', true);
    const lisbon = listed(page).filter({ hasText: 'Lisbon, Portugal' });
    await eventually(() => lisbon.evaluate((el) => el.classList.contains('is-new'))).toBe(false);
    expect(posts).toBe(2);
    expect(await listed(page).allTextContents()).toEqual(['Kyoto, Japan', 'Lisbon, Portugal']);
    await eventually(() => markerCount(page)).toBe(2);
    expect(await pin(page, 'Kyoto, Japan').count()).toBe(1);
    expect(await pin(page, 'Lisbon, Portugal').count()).toBe(1);
    await steady(page);
    await screenshot(page, 'bucketlist-list-1440');

    // the itinerary editor in Kyoto's info window
    await openPin(page, 'Kyoto, Japan');
    await itinerary(page).getByText('No plans yet.', { exact: false }).waitFor();
    const input = itinerary(page).getByRole('textbox', { name: 'New itinerary item' });
    await input.fill('  Fushimi Inari at dawn  ');
    await input.press('Enter');
    await eventually(() => itineraryItems(page).allTextContents()).toEqual([
      'Fushimi Inari at dawn',
    ]);
    expect(await input.inputValue()).toBe('');
    await input.fill('   ');
    await input.press('Enter');
    await input.fill('Skip this one');
    await itinerary(page).getByRole('button', { name: 'Add item' }).click();
    await input.fill('Tea ceremony in Gion');
    await input.press('Enter');
    await eventually(() => itineraryItems(page).count()).toBe(3);
    await itinerary(page).getByRole('button', { name: 'Remove “Skip this one”' }).click();
    expect(await itineraryItems(page).allTextContents()).toEqual([
      'Fushimi Inari at dawn',
      'Tea ceremony in Gion',
    ]);
    await itinerary(page).getByText('Unsaved changes').waitFor();
    await steady(page);
    await screenshot(page, 'bucketlist-itinerary-1440');

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/itinerary') && r.request().method() === 'POST',
    );
    await itinerary(page).getByRole('button', { name: 'Save itinerary' }).click();
    const response = await saved;
    expect(response.status()).toBeLessThan(300);
    const body = response.request().postDataJSON() as { bucketListId: string; itinerary: string[] };
    expect(body.itinerary).toEqual(['Fushimi Inari at dawn', 'Tea ceremony in Gion']);
    const note = itinerary(page).getByText('Saved Successfully!');
    await note.waitFor();
    await screenshot(page, 'bucketlist-itinerary-saved-1440');
    await eventually(() => note.count()).toBe(0); // the note goes away by itself

    // reload: the itinerary is there
    await page.reload();
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(2);
    await openPin(page, 'Kyoto, Japan');
    await eventually(() => itineraryItems(page).allTextContents()).toEqual([
      'Fushimi Inari at dawn',
      'Tea ceremony in Gion',
    ]);
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await eventually(() => dialog(page).count()).toBe(0);

    // the same screens at 375 px
    {
      const small = await openAs(browser(), account, { width: 375, height: 812 });
      await small.page.goto('/bucketlist');
      await listed(small.page).first().waitFor();
      await mapReady(small.page);
      await eventually(() => markerCount(small.page)).toBe(2);
      await steady(small.page);
      await screenshot(small.page, 'bucketlist-list-375');
      // the map sits below the list: choosing a place in the list brings it into view
      await list(small.page).getByRole('button', { name: 'Kyoto, Japan' }).click();
      await eventually(() =>
        small.page
          .locator('.map-column')
          .evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight + 1),
      ).toBe(true);
      await openPin(small.page, 'Kyoto, Japan');
      await eventually(() => itineraryItems(small.page).count()).toBe(2);
      await itinerary(small.page)
        .getByRole('textbox', { name: 'New itinerary item' })
        .fill('Nishiki market');
      await steady(small.page);
      await screenshot(small.page, 'bucketlist-itinerary-375');
      await small.context.close();
    }

    // tick Kyoto off: it animates out, its pin goes, the server keeps it as visited
    const deleted = page.waitForResponse(
      (r) => r.url().includes('/api/bucketlist/') && r.request().method() === 'DELETE',
    );
    // with the keyboard: Space on its checkbox; focus moves on to the next place's checkbox
    await kyoto.getByRole('checkbox', { name: 'Tick off Kyoto, Japan' }).focus();
    await page.keyboard.press('Space');
    await eventually(() => kyoto.evaluate((el) => el.classList.contains('is-removing'))).toBe(true);
    const lisbonBox = lisbon.getByRole('checkbox', { name: 'Tick off Lisbon, Portugal' });
    expect(await lisbonBox.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await deleted).status()).toBe(200);
    await eventually(() => kyoto.count()).toBe(0);
    await eventually(() => markerCount(page)).toBe(1);
    expect(await listed(page).allTextContents()).toEqual(['Lisbon, Portugal']);
    await page.reload();
    await list(page).getByText('Lisbon, Portugal').waitFor();
    expect(await listed(page).count()).toBe(1);
    const history = page.locator('.bucket-history');
    await history.locator('summary').click();
    await history.getByText('Kyoto, Japan').waitFor();
    expect(await history.getByText(/^ticked off /).count()).toBe(1);
    const kyotoItem = (await bucketList(account)).find((i) => i.place === 'Kyoto, Japan');
    expect(kyotoItem?.isVisited).toBe(true);

    // a trip to Lisbon (through the API, as the add-trip form sends it): bucketlist hears of it
    // from Kafka, and the open screen drops the place without a reload
    await createTrip(account, 'Atlantic week', [
      ['Lisbon, Portugal', '38.72509', '-9.14980', '2026-04-02', '2026-04-06'],
    ]);
    await eventually(() => listed(page).count(), 45_000).toBe(0);
    await page.getByText(EMPTY).waitFor();
    await eventually(() => markerCount(page)).toBe(0);
    await history.getByText('visited on Atlantic week').waitFor();
    await steady(page);
    await screenshot(page, 'bucketlist-visited-1440');
    const lisbonItem = (await bucketList(account)).find((i) => i.place === 'Lisbon, Portugal');
    expect(lisbonItem).toMatchObject({ isVisited: true, visitedByTrip: { name: 'Atlantic week' } });
    await context.close();
  });

  it('with the bucketlist service down: the window says so, and a refused tick comes back as Unknown', async () => {
    const account = await signUp('Offline Planner');
    const created = await api('/api/bucketlist', account, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        place: 'Reykjavik, Iceland',
        latitude: 64.13548,
        longitude: -21.89541,
        isVisited: false,
      }),
    });
    expect(created.status).toBe(201);
    const { context, page } = await openAs(browser(), account);
    await page.goto('/bucketlist');
    await list(page).getByText('Reykjavik, Iceland').waitFor();
    await mapReady(page);
    await eventually(() => markerCount(page)).toBe(1);

    await withServiceDown('bucketlist', async () => {
      await openPin(page, 'Reykjavik, Iceland');
      await dialog(page)
        .getByRole('alert')
        .filter({ hasText: 'Failed to fetch itinerary.' })
        .waitFor();
      await screenshot(page, 'bucketlist-itinerary-load-failed-1440');
      await dialog(page).getByRole('button', { name: 'Close' }).click();

      const item = listed(page).first();
      // a click, not check(): the refused tick unchecks it again at once
      await item.getByRole('checkbox', { name: 'Tick off Reykjavik, Iceland' }).click();
      await item.getByText('Unknown', { exact: true }).waitFor();
      // which place it was is still said
      await item.getByText('Could not tick Reykjavik, Iceland off. Please try again.').waitFor();
      expect(await item.getByRole('checkbox').isChecked()).toBe(false);
      expect(await listed(page).count()).toBe(1);
    });

    // back up: the itinerary loads; a save while it is down again says 'Failed to save itinerary'
    await openPin(page, 'Reykjavik, Iceland');
    const input = itinerary(page).getByRole('textbox', { name: 'New itinerary item' });
    await input.fill('Blue Lagoon');
    await input.press('Enter');
    await withServiceDown('bucketlist', async () => {
      await itinerary(page).getByRole('button', { name: 'Save itinerary' }).click();
      await itinerary(page)
        .getByRole('alert')
        .filter({ hasText: 'Failed to save itinerary' })
        .waitFor();
      expect(await itineraryItems(page).allTextContents()).toEqual(['Blue Lagoon']);
    });
    await screenshot(page, 'bucketlist-itinerary-save-failed-1440');
    // nothing was saved meanwhile
    const res = await api(`/api/itinerary/${(await bucketList(account))[0]!._id}`, account);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { itinerary: string[] }).itinerary).toEqual([]);
    await context.close();
  });
});
