import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { say } from '../support/account';
import { api, createTrip, signUp, type Account } from '../support/api';
import { animationsDone, makePng, screenshot, useBrowser } from '../support/browser';
import { eventually, openAs } from '../support/pages';

/**
 * Notifications, the inbox and the feed in headless Chromium with two users in two
 * browser contexts against the real stack: social's request and acceptance, chat's message and
 * trips' new trip, each through Kafka to the notifications service, pushed over Redis to chat's
 * socket and so to the other user's open page, which counts it without a reload; chat's inbox
 * and social's feed read from their own read models.
 */

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const bellCount = (page: Page) => page.getByTestId('bell-count');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const navCount = (page: Page, which: 'friends' | 'messages') =>
  page.getByTestId(`nav-count-${which}`);
/** The number a count shows ('' when it is not shown). */
async function countText(count: Locator): Promise<string> {
  if ((await count.count()) === 0) return '';
  const shown = count.locator('[aria-hidden="true"]');
  return (
    ((await shown.count()) > 0 ? await shown.first().textContent() : await count.textContent()) ??
    ''
  );
}

/** The page is signed in and its live socket is up (a push from now on reaches it). */
async function live(page: Page) {
  await page.locator('.bell[data-live="connected"]').waitFor({ timeout: 30_000 });
}

/** `from` writes to `to` through the gateway's socket, once chat knows they are friends. */
async function sayWhenFriends(from: Account, to: Account, text: string) {
  await eventually(async () => {
    try {
      await say(from, to, text);
      return true;
    } catch {
      return false;
    }
  }, 20_000).toBe(true);
}

describe('notifications, inbox and feed: two users in two browsers', () => {
  const browser = useBrowser();

  it('a request, its acceptance, a message and a trip reach the other user live: bell, counts, inbox, feed', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const aName = `Ada Notified ${tag}`;
    const bName = `Bea Reaching ${tag}`;
    const ada = await signUp(aName, 'notify-a');
    const bea = await signUp(bName, 'notify-b', makePng(64));

    const a = await openAs(browser(), ada);
    const b = await openAs(browser(), bea);
    await a.page.goto('/trips');
    await b.page.goto('/trips');
    await live(a.page);
    await live(b.page);
    expect(await bellCount(a.page).count()).toBe(0);

    // the left navigation: the spec's entries with Feed, Atlas and Messages
    const nav = a.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    expect((await nav.allTextContents()).map((t) => t.trim())).toEqual([
      'Trips',
      'Feed',
      'Bucket List',
      'Atlas',
      'Friends',
      'Messages',
    ]);

    // B asks A (social learns new users from auth's events: 404 until then)
    await eventually(
      async () => (await api(`/api/add-friend/${ada.userId}`, bea, { method: 'POST' })).status,
    ).toBe(200);
    // A's bell, Friends count and tab title go up without a reload
    await eventually(() => countText(bellCount(a.page)), 15_000).toBe('1');
    await eventually(() => countText(navCount(a.page, 'friends'))).toBe('1');
    await eventually(() => a.page.title()).toBe('(1) Wayfarer');

    // the panel by keyboard: Enter opens it (focus inside), Escape closes it, focus on the bell
    await bell(a.page).focus();
    await a.page.keyboard.press('Enter');
    await panel(a.page).waitFor();
    await eventually(() =>
      a.page.evaluate(() => !!document.activeElement?.closest('.bell-panel')),
    ).toBe(true);
    const request = panel(a.page).getByRole('button', {
      name: `${bName} sent you a friend request`,
    });
    await request.waitFor();
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-bell-1440');
    await a.page.keyboard.press('Escape');
    await eventually(() => panel(a.page).count()).toBe(0);
    expect(
      await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''),
    ).toMatch(/^Notifications, 1 unread/);

    // the notification opens the request on /friends, and is read
    await bell(a.page).click();
    await request.click();
    await a.page.waitForURL('**/friends#requests');
    const accept = a.page.getByRole('button', { name: `Accept ${bName}` });
    await accept.waitFor();
    await eventually(() => bellCount(a.page).count()).toBe(0);
    await eventually(() => a.page.title()).toBe('Wayfarer');

    // A accepts: the Friends count goes, and B is notified live
    await accept.click();
    await eventually(() => navCount(a.page, 'friends').count()).toBe(0);
    await eventually(() => countText(bellCount(b.page)), 15_000).toBe('1');
    await bell(b.page).click();
    await panel(b.page)
      .getByRole('button', { name: `${aName} accepted your friend request` })
      .waitFor();
    await b.page.keyboard.press('Escape');

    // B writes while A is on /trips: A's Messages count and bell go up without a reload
    await a.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Trips' })
      .click();
    await a.page.waitForURL('**/trips');
    const text = `Back from Lisbon, coffee soon? ${tag}`;
    await sayWhenFriends(bea, ada, text);
    await eventually(() => countText(navCount(a.page, 'messages')), 15_000).toBe('1');
    await eventually(() => countText(bellCount(a.page))).toBe('1');

    // the inbox: B's conversation first, the message's preview, unread
    await a.page.getByRole('link', { name: /^Messages/ }).click();
    await a.page.waitForURL('**/messages');
    const rows = a.page.getByRole('list', { name: 'Conversations' }).getByRole('link');
    await eventually(() => rows.count()).toBe(1);
    const first = rows.first();
    expect(await first.locator('.inbox-name').textContent()).toBe(bName);
    expect(await first.locator('.inbox-preview').textContent()).toBe(text);
    expect(await first.locator('.inbox-unread [aria-hidden="true"]').textContent()).toBe('1');
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-messages-1440');

    // B adds a trip: A is notified, and A's feed shows it
    const trip = await createTrip(bea, `Azores loop ${tag}`, [
      ['Ponta Delgada', '37.74', '-25.67', '2026-06-01', '2026-06-04'],
      ['Horta', '38.53', '-28.63', '2026-06-05', '2026-06-08'],
    ]);
    await eventually(() => countText(bellCount(a.page)), 15_000).toBe('2');
    await bell(a.page).click();
    await panel(a.page)
      .getByRole('button', { name: `${bName} added a trip: Azores loop ${tag}` })
      .click();
    await a.page.waitForURL(`**/feed?trip=${trip._id}`);
    // social's feed learns the trip from trips' events: read again until it is there
    const card = a.page.locator(`.feed-card[data-trip="${trip._id}"]`);
    await eventually(async () => {
      if ((await card.count()) > 0) return true;
      await a.page.reload();
      await a.page.locator('.feed-page').waitFor();
      await a.page.locator('.feed-page [role="status"]').waitFor({ state: 'detached' });
      return (await card.count()) > 0;
    }, 20_000).toBe(true);
    expect(await card.getAttribute('aria-pressed')).toBe('true');
    expect(await card.locator('.feed-friend-name').textContent()).toBe(bName);
    expect(await card.locator('.feed-places').textContent()).toBe('Ponta Delgada · Horta');
    await card.locator('.trip-thumb img').waitFor();
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-feed-1440');

    // at 375 px: the feed, the inbox, the bell's panel
    await a.page.setViewportSize({ width: 375, height: 812 });
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-feed-375');
    await a.page.getByRole('link', { name: /^Messages/ }).click();
    await a.page.waitForURL('**/messages');
    await rows.first().waitFor();
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-messages-375');
    await bell(a.page).click();
    await panel(a.page).waitFor();
    await animationsDone(a.page);
    await screenshot(a.page, 'notifications-bell-375');
    const overflow = await a.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    const box = await panel(a.page).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await a.page.keyboard.press('Escape');

    // opening the conversation reads it: the Messages count goes
    await rows.first().click();
    await a.page.waitForURL(`**/messages/${bea.userId}`);
    await a.page.getByRole('heading', { level: 1, name: bName }).waitFor();
    await eventually(() => navCount(a.page, 'messages').count(), 15_000).toBe(0);
    await eventually(async () => {
      const inbox = (await (await api('/api/conversations', ada)).json()) as { unread: number }[];
      return inbox.map((c) => c.unread);
    }).toEqual([0]);

    await a.context.close();
    await b.context.close();
  });
});
