import type { FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createTrip, signUp, type Account } from '../support/api';
import { DEMO_PASSWORD, TRIPS, USERS } from '../../scripts/demo/data';
import { seedDemo } from '../../scripts/demo/seed';
import { animationsDone, baseUrl, launchBrowser, screenshot } from '../support/browser';
import { eventually, openAs } from '../support/pages';

/**
 * The atlas in headless Chromium against the real stack: trips go to trips, their
 * events to social, whose read model answers `GET /api/stats`; the screen fills the countries
 * and shows the same figures, and a friend's countries are overlaid with the shared one named.
 */

const ME = 'Atlas Traveller';
const FRIEND = 'Atlas Friend';

async function stats(account: Account, path = '/api/stats'): Promise<StatsResponse> {
  const res = await api(path, account);
  expect(res.status).toBe(200);
  return (await res.json()) as StatsResponse;
}

/** The map's countries by fill: `{FR: 'mine', IT: 'both', ...}` (unfilled ones left out). */
function fills(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll<SVGPathElement>('.atlas-map path[data-code]'))
        .filter((p) => p.dataset.visit !== 'none')
        .map((p) => [p.dataset.code!, p.dataset.visit!]),
    ),
  );
}

const tile = (page: Page, name: string) =>
  page.locator(`[data-tile="${name}"] .atlas-tile-value`).textContent();

async function mapDrawn(page: Page) {
  await page.locator('.atlas-map path[data-code="FR"]').waitFor({ timeout: 30_000 });
}

describe('atlas', () => {
  let browser: Browser;
  let me: Account;
  let friend: Account;

  beforeAll(async () => {
    browser = await launchBrowser();
    [me, friend] = await Promise.all([signUp(ME), signUp(FRIEND)]);
    await createTrip(me, 'Paris and Rome', [
      ['Paris', '48.8566', '2.3522', '2025-05-01', '2025-05-04'],
      ['Rome', '41.9028', '12.4964', '2025-05-05', '2025-05-09'],
    ]);
    await createTrip(me, 'Tokyo', [['Tokyo', '35.6762', '139.6503', '2025-10-02', '2025-10-12']]);
    await createTrip(friend, 'Carnival and Florence', [
      ['Rio de Janeiro', '-22.9068', '-43.1729', '2024-02-09', '2024-02-14'],
      ['Florence', '43.7696', '11.2558', '2024-06-01', '2024-06-05'],
    ]);
    await createTrip(friend, 'Safari', [
      ['Nairobi', '-1.2921', '36.8219', '2024-08-01', '2024-08-09'],
    ]);
    // social learns new users from auth's events (404 until then), and applies the trips'
    // events: the figures are in once both read models have them (vi.waitFor: a hook)
    const wait = { timeout: 30_000, interval: 200 };
    await vi.waitFor(async () => {
      const res = await api(`/api/add-friend/${friend.userId}`, me, { method: 'POST' });
      expect(res.status).toBe(200);
    }, wait);
    expect((await api(`/api/acceptFriend/${me.userId}`, friend, { method: 'POST' })).status).toBe(
      200,
    );
    await vi.waitFor(async () => expect((await stats(me)).countryCount).toBe(3), wait);
    await vi.waitFor(async () => {
      const theirs = await stats(me, `/api/stats/friends/${friend.userId}`);
      expect(theirs.countryCount).toBe(3);
    }, wait);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens from the left navigation with the countries filled and the figures of GET /api/stats', async () => {
    const expected = await stats(me);
    expect(expected.countries.map((c) => c.code)).toEqual(['FR', 'IT', 'JP']);
    const { context, page } = await openAs(browser, me);
    await page.goto('/trips');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Atlas' })
      .click();
    await page.waitForURL('**/atlas');
    await page.getByRole('heading', { name: 'Atlas', level: 1 }).waitFor();
    await mapDrawn(page);
    await eventually(() => fills(page)).toEqual({ FR: 'mine', IT: 'mine', JP: 'mine' });
    expect(
      await page
        .locator('.atlas-map path[data-visited="true"]')
        .evaluateAll((paths) => paths.map((p) => p.getAttribute('data-code')).sort()),
    ).toEqual(['FR', 'IT', 'JP']);
    expect(await page.locator('.atlas-map path[data-friend="true"]').count()).toBe(0);

    // the tiles say what the API says
    const km = `${Math.round(expected.distanceKm).toLocaleString('en')} km`;
    expect(await tile(page, 'Countries')).toBe(String(expected.countryCount));
    expect(await tile(page, 'Trips')).toBe(String(expected.tripCount));
    expect(await tile(page, 'Destinations')).toBe(String(expected.destinationCount));
    expect(await tile(page, 'Days travelled')).toBe(String(expected.daysTravelled));
    expect(await tile(page, 'Distance')).toBe(km);
    expect(expected.tripCount).toBe(2);
    expect(expected.destinationCount).toBe(3);
    expect(expected.daysTravelled).toBe(20);
    const share = `${Number((expected.worldShare * 100).toFixed(1))}% of the world`;
    expect(await page.locator('[data-tile="Countries"] .atlas-tile-detail').textContent()).toBe(
      share,
    );

    // the countries with flags and first visit, the continents
    const rows = page.getByRole('list', { name: 'Countries visited' }).getByRole('listitem');
    expect(await rows.count()).toBe(3);
    expect(await rows.first().locator('.atlas-country-name').textContent()).toBe('France');
    // the flag emoji, or its code where the browser has no colour emoji font (this Chromium)
    expect(['🇫🇷', 'FR']).toContain(await rows.first().locator('.atlas-flag').textContent());
    expect(await rows.first().locator('time').getAttribute('datetime')).toBe('2025-05-01');
    const continents = page.getByRole('list', { name: 'Continents' }).getByRole('listitem');
    expect(await continents.allTextContents()).toEqual(['Europe2 countries', 'Asia1 country']);

    await animationsDone(page);
    await screenshot(page, 'atlas-1440');
    await continents.last().scrollIntoViewIfNeeded();
    await screenshot(page, 'atlas-lists-1440');
    await context.close();
  });

  it("overlays a friend's countries and names the shared one", async () => {
    const theirs = (await stats(me, `/api/stats/friends/${friend.userId}`)) as FriendStatsResponse;
    expect(theirs.sharedCountries).toEqual([{ code: 'IT', name: 'Italy' }]);
    const { context, page } = await openAs(browser, me);
    await page.goto('/atlas');
    await mapDrawn(page);
    await eventually(() => fills(page)).toEqual({ FR: 'mine', IT: 'mine', JP: 'mine' });

    // by keyboard: focus the picker, choose the friend
    const picker = page.getByLabel('Compare with a friend');
    await eventually(() => picker.isEnabled()).toBe(true);
    await picker.focus();
    await page.keyboard.press('ArrowDown'); // 'No one', then the one friend
    expect(await picker.inputValue()).toBe(friend.userId);
    await eventually(() => fills(page)).toEqual({
      FR: 'mine',
      IT: 'both',
      JP: 'mine',
      BR: 'friend',
      KE: 'friend',
    });
    await page.getByText('You have both been to Italy.').waitFor();
    await page.getByRole('list', { name: 'Map colours' }).getByText(FRIEND).waitFor();
    await animationsDone(page);
    await screenshot(page, 'atlas-friend-1440');

    // none again: the overlay goes
    await picker.selectOption({ label: 'No one' });
    await eventually(() => fills(page)).toEqual({ FR: 'mine', IT: 'mine', JP: 'mine' });
    await context.close();
  });

  it('is readable at 375 px: no horizontal overflow, the overlay too', async () => {
    const { context, page } = await openAs(browser, me, { width: 375, height: 812 });
    await page.goto('/atlas');
    await mapDrawn(page);
    await page.getByLabel('Compare with a friend').selectOption({ label: FRIEND });
    await page.getByText('You have both been to Italy.').waitFor();
    await eventually(() => fills(page)).toMatchObject({ IT: 'both', BR: 'friend' });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await animationsDone(page);
    await screenshot(page, 'atlas-375');
    await context.close();
  });

  it(
    "shows the demo traveller's countries filled and the figures",
    { timeout: 240_000 },
    async () => {
      await seedDemo(baseUrl()); // a second run (after demo-seed's) makes nothing twice
      const maya = USERS.find((u) => u.key === 'maya')!;
      const res = await api('/api/login', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: maya.email, password: DEMO_PASSWORD }),
      });
      expect(res.status).toBe(200);
      const pair = res.headers
        .getSetCookie()
        .find((c) => c.startsWith('wayfarer_session='))!
        .split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      const demo: Account = {
        userId: '',
        cookie: { name: pair.slice(0, eq), value: pair.slice(eq + 1) },
        header: pair,
      };
      const trips = TRIPS.filter((t) => t.owner === 'maya').length;
      await eventually(async () => (await stats(demo)).tripCount, 30_000).toBe(trips);
      const expected = await stats(demo);
      expect(expected.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['NO', 'JP']));

      const { context, page } = await openAs(browser, demo);
      await page.goto('/atlas');
      await mapDrawn(page);
      await eventually(() => fills(page)).toEqual(
        Object.fromEntries(expected.countries.map((c) => [c.code, 'mine'])),
      );
      expect(await tile(page, 'Countries')).toBe(String(expected.countryCount));
      expect(await tile(page, 'Trips')).toBe(String(expected.tripCount));
      expect(await tile(page, 'Destinations')).toBe(String(expected.destinationCount));
      expect(await tile(page, 'Days travelled')).toBe(String(expected.daysTravelled));
      expect(await tile(page, 'Distance')).toBe(
        `${Math.round(expected.distanceKm).toLocaleString('en')} km`,
      );
      await animationsDone(page);
      await screenshot(page, 'atlas-demo-1440');
      await context.close();
    },
  );

  it('says when there are no trips yet, with a link to add one', async () => {
    const newcomer = await signUp('Atlas Newcomer');
    const { context, page } = await openAs(browser, newcomer);
    await page.goto('/atlas');
    await page.getByText('No trips yet: your atlas fills in as you add them.').waitFor();
    await page.getByRole('link', { name: 'Add a trip' }).click();
    await page.waitForURL('**/addTrip');
    await context.close();
  });
});
