import { ShareMessages, SharePaths, type Friend } from '@wayfarer/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { json } from '../support/account';
import { api, createTrip, signUp, type Account } from '../support/api';
import { animationsDone, mapIdle, newPage, screenshot, useBrowser } from '../support/browser';
import { eventually, mapReady, markerCount, openAs } from '../support/pages';

/**
 * Who sees a trip and share links in headless Chromium against the real stack: the
 * edit form's visibility control (trips, social's friends' view, the friend's map), and the
 * owner's share dialog with the public page `/s/{token}` in a browser with no session (trips'
 * public reads and photos under the link, the gateway's page).
 */

const PLACES = [
  ['Lisbon, Portugal', '38.72225', '-9.13934', '2025-05-02', '2025-05-06'],
  ['Porto, Portugal', '41.14961', '-8.61099', '2025-05-07', '2025-05-10'],
] as const;

/** The ids of `owner`'s trips in `reader`'s `GET /api/friends`. */
async function friendTrips(reader: Account, owner: Account): Promise<string[] | undefined> {
  const res = await api('/api/friends', reader);
  expect(res.status).toBe(200);
  const friends = (await res.json()) as Friend[];
  return friends.find((f) => f.id === owner.userId)?.trips.map((t) => t._id);
}

/**
 * The owner's edit form: sets who can see the trip and saves, back on the trip screen (a
 * screenshot of the control before Save when `shot` names one).
 */
async function setVisibility(
  page: Page,
  tripId: string,
  choice: 'Friends' | 'Only me',
  shot?: string,
) {
  await page.goto(`/trip/${tripId}/edit`);
  const group = page.getByRole('group', { name: 'Who can see this trip' });
  await group.waitFor();
  await eventually(() => page.getByLabel('Trip name').inputValue()).not.toBe('');
  const radio = group.getByRole('radio', { name: choice });
  expect(await radio.isChecked()).toBe(false);
  await radio.check();
  if (shot) {
    await group.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await screenshot(page, shot);
  }
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL(new RegExp(`/trip/${tripId}$`), { timeout: 30_000 });
}

/** Every carousel photo of the public page has loaded. */
const photosLoaded = (page: Page) =>
  page.waitForFunction(
    () => {
      const imgs = Array.from(
        document.querySelectorAll<HTMLImageElement>('.shared-destination img'),
      );
      return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0);
    },
    undefined,
    { timeout: 30_000 },
  );

interface Visit {
  context: BrowserContext;
  page: Page;
  /** The photo URLs the page showed. */
  photos: string[];
}

/**
 * Opens a share link in a fresh context (no cookies) `width` px wide and checks what a visitor
 * sees: the trip, two pins, both destinations' photos, the story and the journal, nothing
 * overflowing, and no call but the link's read and photos; screenshots of the page's top and
 * of a destination.
 */
async function visit(browser: Browser, url: string, width: number): Promise<Visit> {
  const { context, page } = await newPage(browser, { width, height: width < 640 ? 812 : 900 });
  expect(await context.cookies()).toEqual([]);
  const apiCalls: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) apiCalls.push(path);
  });
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'Douro by train' }).waitFor();
  await mapReady(page);
  await eventually(() => markerCount(page), 30_000).toBe(2);
  const lisbon = page.getByRole('article', { name: 'Lisbon, Portugal' });
  await lisbon.getByText('Custard tarts at dawn.').waitFor();
  await page
    .getByRole('article', { name: 'Porto, Portugal' })
    .getByText('Port cellars across the river.')
    .waitFor();
  await lisbon.getByRole('img', { name: 'Lisbon, Portugal, photo 1 of 2' }).waitFor();
  await photosLoaded(page);
  await mapIdle(page);
  await animationsDone(page);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  await screenshot(page, `sharing-public-${width}`);
  await lisbon.scrollIntoViewIfNeeded();
  await animationsDone(page);
  await screenshot(page, `sharing-public-destination-${width}`);
  // every photo of the trip, by the carousels' next buttons, each loaded from the link
  const photos = new Set<string>();
  for (const article of await page.locator('.shared-destination').all()) {
    for (let i = 0; i < 2; i++) {
      const img = article.locator('.carousel-photo');
      await eventually(() =>
        img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0),
      ).toBe(true);
      photos.add(await img.evaluate((el: HTMLImageElement) => el.src));
      // by keyboard: a click could land on the fixed top bar over a scrolled-to button
      await article.getByRole('button', { name: /Next( photo)?$/ }).focus();
      await page.keyboard.press('Enter');
    }
  }
  for (const photo of photos) {
    expect(new URL(photo).pathname.startsWith(`${SharePaths.apiPrefix}/`)).toBe(true);
  }
  // only the link's read and its photos: nothing needing a session
  expect(apiCalls.length).toBeGreaterThan(0);
  expect(apiCalls.filter((p) => !p.startsWith(`${SharePaths.apiPrefix}/`))).toEqual([]);
  return { context, page, photos: [...photos] };
}

describe('who sees a trip, and share links', () => {
  const browser = useBrowser();

  it('a trip made "Only me" in the edit form leaves the friend’s friends list and map, and comes back', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const owner = await signUp(`Olga Owner ${tag}`, 'share-owner');
    const friend = await signUp(`Fred Friend ${tag}`, 'share-friend');
    // social knows a new user once it consumed the sign-up: asked again until it does
    await eventually(
      async () => (await api(`/api/add-friend/${friend.userId}`, owner, { method: 'POST' })).status,
      30_000,
    ).toBe(200);
    expect(
      (await api(`/api/acceptFriend/${owner.userId}`, friend, { method: 'POST' })).status,
    ).toBe(200);
    const trip = await createTrip(owner, 'Portuguese coast', PLACES, 'Tiles everywhere.', 1);

    // the friend sees it: in /api/friends and as two pins on the friends map
    await eventually(() => friendTrips(friend, owner), 30_000).toEqual([trip._id]);
    const f = await openAs(browser(), friend);
    await f.page.goto('/friends');
    await mapReady(f.page);
    await eventually(() => markerCount(f.page), 30_000).toBe(2);

    // the owner: a trip added as Only me (the add form's multipart field) never reaches the friend
    const o = await openAs(browser(), owner);
    await o.page.goto('/addTrip');
    const addGroup = o.page.getByRole('group', { name: 'Who can see this trip' });
    expect(await addGroup.getByRole('radio', { name: 'Friends' }).isChecked()).toBe(true);
    await o.page.getByLabel('Trip name').fill('Secret weekend');
    await addGroup.getByRole('radio', { name: 'Only me' }).check();
    const posted = o.page.waitForRequest(
      (r) => r.url().endsWith('/api/trips') && r.method() === 'POST',
    );
    await o.page.getByRole('button', { name: 'Save trip' }).click();
    expect((await posted).postData()).toMatch(/name="visibility"\r\n\r\nprivate\r\n/);
    await o.page.waitForURL(/\/trip\/[^/]+$/, { timeout: 30_000 });
    await o.page.getByRole('heading', { level: 1, name: 'Secret weekend' }).waitFor();
    await o.page.getByRole('img', { name: 'Private trip' }).waitFor();
    const secretId = o.page.url().split('/').pop()!;
    const secret = (await (await api(`/api/trips/${secretId}`, owner)).json()) as {
      visibility?: string;
    };
    expect(secret.visibility).toBe('private');

    // Friends is the edit form's default too; Only me, saved
    await setVisibility(o.page, trip._id, 'Only me', 'sharing-visibility-1440');
    await o.page.getByRole('img', { name: 'Private trip' }).waitFor();
    const saved = (await (await api(`/api/trips/${trip._id}`, owner)).json()) as {
      visibility?: string;
    };
    expect(saved.visibility).toBe('private');
    // the list: a lock with its name and title
    await o.page.goto('/trips');
    const card = o.page.getByRole('link', { name: /Portuguese coast/ });
    const lock = card.getByRole('img', { name: 'Private trip' });
    await lock.waitFor();
    expect(await lock.getAttribute('title')).toBe('Private trip');
    await mapIdle(o.page);
    await animationsDone(o.page);
    await screenshot(o.page, 'sharing-private-list-1440');

    // gone for the friend: the API, then the map once the screen reads it again
    await eventually(() => friendTrips(friend, owner), 30_000).toEqual([]);
    await f.page.reload();
    await mapReady(f.page);
    await f.page.getByRole('list', { name: 'Your friends' }).waitFor();
    await mapIdle(f.page);
    expect(await markerCount(f.page)).toBe(0);
    // and its destination's detail answers 404
    const destination = trip.destinations[0]!._id;
    expect(
      (await api(`/api/friends/${owner.userId}/destinations/${destination}`, friend)).status,
    ).toBe(404);

    // back to Friends: it returns
    await setVisibility(o.page, trip._id, 'Friends');
    expect(await o.page.getByRole('img', { name: 'Private trip' }).count()).toBe(0);
    await eventually(() => friendTrips(friend, owner), 30_000).toEqual([trip._id]);
    await f.page.reload();
    await mapReady(f.page);
    await eventually(() => markerCount(f.page), 30_000).toBe(2);
    // the trip added private never came
    expect(await friendTrips(friend, owner)).not.toContain(secretId);

    await o.context.close();
    await f.context.close();
  });

  it('the owner shares a trip with its stories; a browser with no session sees it at /s/{token}; revoked, the page and its photos fail', async () => {
    const owner = await signUp('Sasha Sharer', 'share-link');
    const trip = await createTrip(owner, 'Douro by train', PLACES, 'Custard tarts at dawn.', 2);
    const porto = trip.destinations[1]!._id;
    // a journal for Porto (journal knows it once it consumed trip.created)
    await eventually(async () => (await api(`/api/journal/${porto}`, owner)).status, 30_000).toBe(
      200,
    );
    const journal = await api('/api/journal', owner, {
      method: 'POST',
      ...json({
        destinationId: porto,
        content: 'Port cellars across the river.',
        date: new Date().toISOString(),
      }),
    });
    expect(journal.status).toBe(200);

    // the owner: Share on the trip screen, a dialog with the form (keyboard: focus inside)
    const o = await openAs(browser(), owner);
    await o.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await o.page.goto(`/trip/${trip._id}`);
    await o.page.getByRole('heading', { level: 1, name: 'Douro by train' }).waitFor();
    const share = o.page.getByRole('button', { name: 'Share', exact: true });
    await share.focus();
    await o.page.keyboard.press('Enter');
    const dialog = o.page.getByRole('dialog', { name: 'Share this trip' });
    await dialog.getByText('This trip has no share link yet.').waitFor();
    await eventually(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Include stories and journals' }).check();
    expect(
      await dialog.getByRole('checkbox', { name: 'Let search engines show this page' }).isChecked(),
    ).toBe(false);
    await animationsDone(o.page);
    await screenshot(o.page, 'sharing-dialog-form-1440');
    const created = o.page.waitForResponse(
      (r) => r.url().endsWith(`/api/trips/${trip._id}/share`) && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create link' }).click();
    expect((await created).status()).toBe(201);

    // the full URL, Copy, what it shows
    const linkInput = dialog.getByRole('textbox', { name: 'Share link' });
    await linkInput.waitFor();
    const url = await linkInput.inputValue();
    const origin = new URL(o.page.url()).origin;
    expect(url).toMatch(new RegExp(`^${origin}${SharePaths.pagePrefix}/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await eventually(() => dialog.locator('.share-copied').textContent()).toBe('Link copied.');
    expect(await o.page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await dialog.textContent()).toContain('Works until you revoke it.');
    expect(await dialog.textContent()).toContain('Shows the stories and journals.');
    await animationsDone(o.page);
    await screenshot(o.page, 'sharing-dialog-link-1440');
    // at 375 px: the trip's actions and the dialog with the live link fit
    const small = await openAs(browser(), owner, { width: 375, height: 812 });
    await small.page.goto(`/trip/${trip._id}`);
    await small.page.getByRole('button', { name: 'Share', exact: true }).click();
    const smallDialog = small.page.getByRole('dialog', { name: 'Share this trip' });
    expect(await smallDialog.getByRole('textbox', { name: 'Share link' }).inputValue()).toBe(url);
    const box = (await smallDialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // the link's input stacked above Copy keeps its height (it had 18 px once)
    const field = (await smallDialog.getByRole('textbox', { name: 'Share link' }).boundingBox())!;
    expect(field.height).toBeGreaterThan(30);
    await animationsDone(small.page);
    await screenshot(small.page, 'sharing-dialog-link-375');
    await small.context.close();

    // Escape closes it, the focus back on Share; opened again it shows the live link
    await o.page.keyboard.press('Escape');
    await eventually(() => dialog.isVisible()).toBe(false);
    await eventually(() => share.evaluate((el) => el === document.activeElement)).toBe(true);

    // fresh browser contexts, no session: the page, its map pins, photos and stories
    const visits = [];
    for (const width of [1440, 375]) visits.push(await visit(browser(), url, width));
    const [wide, narrow] = visits as [Visit, Visit];
    await narrow.context.close();

    // the owner revokes (asked first, like Delete)
    await share.click();
    await linkInput.waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    const question = o.page.getByRole('alertdialog', { name: 'Revoke this link?' });
    await question.waitFor();
    await question.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByText('This trip has no share link yet.').waitFor();

    // the open page, reloaded: the link no longer works; nor do the photos it used
    await wide.page.reload();
    await wide.page.getByRole('heading', { level: 1, name: ShareMessages.linkGone }).waitFor();
    await wide.page.getByRole('link', { name: 'Discover Wayfarer' }).waitFor();
    await animationsDone(wide.page);
    await screenshot(wide.page, 'sharing-gone-1440');
    expect(wide.photos.length).toBe(4);
    for (const photo of wide.photos) expect((await fetch(photo)).status).toBe(404);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const read = await fetch(new URL(SharePaths.api(token), url));
    expect(read.status).toBe(404);
    expect(((await read.json()) as { message?: string }).message).toBe(ShareMessages.linkGone);
    await wide.context.close();
    await o.context.close();
  });
});
