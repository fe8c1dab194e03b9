import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp, withServiceDown, type Account } from '../support/api';
import { baseUrl, makePng, mapIdle, screenshot, useBrowser } from '../support/browser';
import { dialog, eventually, mapReady, markerCount, steady } from '../support/pages';

/**
 * Friends in headless Chromium with two users in two
 * browser contexts against the real stack: gateway, auth, social (PostgreSQL, fed by auth's and
 * trips' Kafka events), trips (photos served to friends) and journal (read-only for friends).
 */

async function openAs(
  browser: Browser,
  account: Account,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  await context.addCookies([{ ...account.cookie, url: baseUrl() }]);
  // as a login leaves it (the user id in local storage)
  await context.addInitScript((id) => localStorage.setItem('userId', id), account.userId);
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  return { context, page };
}

const EMPTY = 'You have no friends yet. Start by adding some!';
const NO_RESULTS = 'No results, try searching for a different name.';
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search people by name' });
const results = (page: Page) => page.getByRole('list', { name: 'Search results' });
const friendsList = (page: Page) => page.getByRole('list', { name: 'Your friends' });
const requestsList = (page: Page) => page.getByRole('list', { name: 'Friend requests' });
const pin = (page: Page, name: string) => page.locator(`.map-pin[aria-label^="${name}"]`);

/** Opens the friend's pin `name` and checks the friend variant of the info window. */
async function openFriendPin(page: Page, name: string, friendName: string, picture: string) {
  await mapIdle(page);
  await pin(page, name).click();
  const window = dialog(page);
  await window.getByRole('heading', { name }).waitFor();
  // the friend's picture and name, a plain close mark
  await window.getByText(friendName, { exact: true }).waitFor();
  const avatar = window.locator('.info-avatar');
  expect(await avatar.getAttribute('src')).toBe(picture);
  await eventually(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  expect(await window.getByRole('button', { name: 'Close' }).textContent()).toBe('×');
  // the photo really loads
  const photo = window.locator('.carousel-photo');
  await photo.waitFor();
  await eventually(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
  return window;
}

describe('friends: search, request, accept, friends on the map, unfriend', () => {
  const browser = useBrowser();

  it('A adds B, B accepts, A sees B’s trip on the map with a read-only journal, B unfriends A', async () => {
    // unique names: other tests of this stack may register the same ones
    const tag = Math.random().toString(36).slice(2, 6);
    const aName = `Ada Friendly ${tag}`;
    const bName = `Bea Wanderer ${tag}`;
    const ada = await signUp(aName, 'friends-a');
    const bea = await signUp(bName, 'friends-b', makePng(64));
    const cName = `Cleo Nomad ${tag}`;
    await signUp(cName, 'friends-c');
    const beaDetails = (await (await api('/api/userDetails', bea)).json()) as {
      profilePicture: string;
    };
    expect(beaDetails.profilePicture).toMatch(/^\/api\//);

    // B's trip (two photos per destination), and a journal for its first destination
    const trip = await createTrip(
      bea,
      'Andes by bus',
      [
        ['Cusco, Peru', '-13.53195', '-71.96746', '2025-05-02', '2025-05-06'],
        ['La Paz, Bolivia', '-16.49590', '-68.13353', '2025-05-07', '2025-05-11'],
      ],
      '',
      2,
    );
    const story = 'Altitude tea at dawn, then the long climb to Sacsayhuamán.';
    const cusco = trip.destinations[0]!._id;
    // journal learns the destination from trips' event: 404 until then
    await eventually(
      async () =>
        (
          await api('/api/journal', bea, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ destinationId: cusco, content: story }),
          })
        ).status,
    ).toBe(200);

    const a = await openAs(browser(), ada);
    const b = await openAs(browser(), bea);

    // A: no friends yet, an empty map
    await a.page.goto('/friends');
    await a.page.getByText(EMPTY).waitFor();
    await mapReady(a.page);
    expect(await markerCount(a.page)).toBe(0);

    // A searches: nonsense finds nobody; a blank query is ignored (nothing sent)
    await a.page.getByRole('link', { name: 'Add Friends' }).first().click();
    await a.page.waitForURL('**/addFriends');
    let searches = 0;
    a.page.on('request', (r) => {
      if (r.url().includes('/api/search-users')) searches += 1;
    });
    await searchBox(a.page).fill(`zzq${tag}xx`);
    await a.page.getByText(NO_RESULTS).waitFor();
    const before = searches;
    await searchBox(a.page).fill('   ');
    await a.page.getByText('Type a name to find people to add.').waitFor();
    expect(searches).toBe(before);

    // A finds B (case-insensitive) and adds: a green check, then B leaves the results
    await searchBox(a.page).fill(bName.toLowerCase());
    const row = results(a.page).locator('.person-card', { hasText: bName });
    await row.waitFor();
    await steady(a.page);
    await screenshot(a.page, 'friends-add-results-1440');
    const added = a.page.waitForResponse((r) => r.url().endsWith(`/api/add-friend/${bea.userId}`));
    await row.getByRole('button', { name: `Add ${bName}` }).click();
    expect((await added).status()).toBe(200);
    await row.locator('.added-check').waitFor();
    await row.waitFor({ state: 'detached' });
    await a.page.getByText('Friend request sent. Search for someone else?').waitFor();
    // searching again shows the request as pending, without Add
    await searchBox(a.page).fill(`${bName} `);
    await searchBox(a.page).fill(bName);
    const again = results(a.page).locator('.person-card', { hasText: bName });
    await again.getByText('Pending', { exact: true }).waitFor();
    expect(await again.getByRole('button', { name: `Add ${bName}` }).count()).toBe(0);

    // B: the request, with Accept and Decline; Accept makes A a friend
    await b.page.goto('/friends');
    const request = requestsList(b.page).locator('.person-card', { hasText: aName });
    await request.waitFor();
    await b.page.getByText(EMPTY).waitFor();
    await steady(b.page);
    await screenshot(b.page, 'friends-request-1440');
    await request.getByRole('button', { name: `Accept ${aName}` }).click();
    await friendsList(b.page).getByText(aName).waitFor();
    await eventually(() => requestsList(b.page).count()).toBe(0);

    // A: B is a friend, B's destinations are pins on A's map
    await a.page.goto('/friends');
    await friendsList(a.page).getByText(bName).waitFor();
    await mapReady(a.page);
    await eventually(() => markerCount(a.page)).toBe(2);
    await steady(a.page);
    await screenshot(a.page, 'friends-list-1440');

    // the friend info window: B's picture and name, the photo, B's journal, read-only
    const window = await openFriendPin(a.page, 'Cusco, Peru', bName, beaDetails.profilePicture);
    // /api/friends names only the first photo: the window reads both when it opens
    await window.locator('.carousel-photo[alt$=", photo 1 of 2"]').waitFor();
    const journal = window.getByRole('region', { name: 'Journal (read-only)' });
    await journal.getByText(story).waitFor();
    expect(await window.getByRole('button', { name: 'Edit journal' }).count()).toBe(0);
    await steady(a.page);
    await screenshot(a.page, 'friends-info-window-1440');
    await window.getByRole('button', { name: 'Close' }).click();
    await eventually(() => dialog(a.page).count()).toBe(0);

    // Message opens /messages/{id} with the friend in navigation state
    await friendsList(a.page)
      .getByRole('button', { name: `Message ${bName}` })
      .click();
    await a.page.waitForURL(`**/messages/${bea.userId}`);
    await a.page.getByRole('heading', { name: bName, level: 1 }).waitFor();
    expect(await a.page.getByText('No friend selected to message.').count()).toBe(0);
    await a.page.goBack();
    await friendsList(a.page).getByText(bName).waitFor();

    // the same screens at 375 px
    {
      const small = await openAs(browser(), ada, { width: 375, height: 812 });
      await small.page.goto('/friends');
      await friendsList(small.page).getByText(bName).waitFor();
      await mapReady(small.page);
      await eventually(() => markerCount(small.page)).toBe(2);
      await steady(small.page);
      await screenshot(small.page, 'friends-list-375');
      await small.page.locator('.map-column').scrollIntoViewIfNeeded();
      const w = await openFriendPin(small.page, 'Cusco, Peru', bName, beaDetails.profilePicture);
      await w.getByRole('region', { name: 'Journal (read-only)' }).getByText(story).waitFor();
      await steady(small.page);
      await screenshot(small.page, 'friends-info-window-375');
      await small.page.goto('/addFriends');
      // B is a friend now: not found any more; a stranger is, with Add
      await searchBox(small.page).fill(bName);
      await small.page.getByText(NO_RESULTS).waitFor();
      await searchBox(small.page).fill(cName);
      await results(small.page)
        .getByRole('button', { name: `Add ${cName}` })
        .waitFor();
      await steady(small.page);
      await screenshot(small.page, 'friends-add-results-375');
      await small.context.close();
    }

    // B unfriends A (after a confirm); A's open screen loses B and the pins without a reload
    await friendsList(b.page)
      .getByRole('button', { name: `Unfriend ${aName}` })
      .click();
    const confirm = b.page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: `Remove ${aName} from your friends?` }).waitFor();
    await steady(b.page);
    await screenshot(b.page, 'friends-unfriend-confirm-1440');
    const removed = b.page.waitForResponse(
      (r) => r.url().endsWith(`/api/friends/${ada.userId}`) && r.request().method() === 'DELETE',
    );
    await confirm.getByRole('button', { name: 'Unfriend' }).click();
    expect((await removed).status()).toBe(200);
    await b.page.getByText(EMPTY).waitFor();

    await a.page.getByText(EMPTY).waitFor({ timeout: 30_000 });
    await eventually(() => markerCount(a.page), 30_000).toBe(0);
    // and B's journal is no longer A's to read
    expect((await api(`/api/journal/${cusco}`, ada)).status).toBe(404);

    await a.context.close();
    await b.context.close();
  });

  it('says so when social is down: the friends list, a search, an Add (the original only logged them)', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const ada = await signUp(`Ada Offline ${tag}`, 'friends-down-a');
    const dora = `Dora Stranger ${tag}`;
    await signUp(dora, 'friends-down-d');
    const { context, page } = await openAs(browser(), ada);

    // a search while social is up finds Dora
    await page.goto('/addFriends');
    await searchBox(page).fill(dora);
    const row = results(page).locator('.person-card', { hasText: dora });
    await row.getByRole('button', { name: `Add ${dora}` }).waitFor();

    await withServiceDown('social', async () => {
      // Add fails: the row says so and keeps its Add
      await row.getByRole('button', { name: `Add ${dora}` }).click();
      await row
        .getByRole('alert')
        .filter({ hasText: 'Could not send the friend request. Please try again.' })
        .waitFor();
      expect(await row.getByRole('button', { name: `Add ${dora}` }).count()).toBe(1);
      // a new search fails: said in the page
      await searchBox(page).fill(`${dora} x`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Could not search for people. Please try again.' })
        .waitFor();
      await steady(page);
      await screenshot(page, 'friends-search-failed-1440');

      // the friends screen: one message with Try again
      await page.goto('/friends');
      await page.getByRole('alert').filter({ hasText: 'Could not load your friends.' }).waitFor();
      expect(await page.getByText('Could not load your friend requests.').count()).toBe(0);
      await steady(page);
      await screenshot(page, 'friends-load-failed-1440');
    });

    // social back: Try again shows the (empty) list
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(EMPTY).waitFor();
    await context.close();
  });
});
