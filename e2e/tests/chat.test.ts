import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, signUp, withServiceDown, type Account } from '../support/api';
import { animationsDone, makePng, screenshot, useBrowser } from '../support/browser';
import { openAs } from '../support/pages';

/**
 * Chat in headless Chromium with two users in two
 * browser contexts against the real stack: gateway (the socket's upgrade proxied on the product's
 * own origin), auth, social (the friendship, through the API) and chat (socket.io over Redis,
 * MongoDB history, the friendship learnt from social's events).
 */

/** `expect.poll` with room for a real stack under load (vitest's default is 1 s). */
const eventually = <T>(fn: () => Promise<T> | T, timeout = 15_000) =>
  expect.poll(fn, { timeout, interval: 100 });

const roomIdOf = (a: string, b: string) => [a, b].sort().join('_');
const panel = (page: Page) => page.locator('.chat-panel');
const input = (page: Page) => page.getByRole('textbox', { name: /^Message / });
const messages = (page: Page) => page.locator('.chat-messages > li');
const texts = (page: Page) => page.locator('.chat-messages .chat-text').allTextContents();
const loadMore = (page: Page) => page.getByRole('button', { name: 'Load more messages' });

async function connected(page: Page) {
  await page.locator('.chat-panel[data-connection="connected"]').waitFor({ timeout: 30_000 });
}

/** Types `text` and sends it with Enter; it shows at once, then is confirmed by the server. */
async function say(page: Page, text: string) {
  const before = await messages(page).count();
  await input(page).fill(text);
  await input(page).press('Enter');
  // at once (pending or already confirmed), the box emptied
  await eventually(() => messages(page).count()).toBe(before + 1);
  expect(await input(page).inputValue()).toBe('');
  await page.locator('.chat-messages > li[data-status="sent"]', { hasText: text }).waitFor();
}

/** Befriends A and B through social's API, then waits until chat knows (its history answers). */
async function befriend(a: Account, b: Account) {
  // social learns new users from auth's events: 404 until then
  await eventually(
    async () => (await api(`/api/add-friend/${b.userId}`, a, { method: 'POST' })).status,
  ).toBe(200);
  await eventually(
    async () => (await api(`/api/acceptFriend/${a.userId}`, b, { method: 'POST' })).status,
  ).toBe(200);
  const room = roomIdOf(a.userId, b.userId);
  // chat learns the friendship from social's events: 403 until then
  for (const who of [a, b]) {
    await eventually(async () => (await api(`/api/conversation/${room}`, who)).status).toBe(200);
  }
}

describe('chat: two friends in two browsers', () => {
  const browser = useBrowser();

  it('each sees the other’s messages live; the latest 10 shown, Load more reveals the older ones in order', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const aName = `Ada Chatter ${tag}`;
    const bName = `Bea Replier ${tag}`;
    const ada = await signUp(aName, 'chat-a');
    const bea = await signUp(bName, 'chat-b', makePng(64));
    await befriend(ada, bea);

    const a = await openAs(browser(), ada);
    const b = await openAs(browser(), bea, { width: 375, height: 812 });

    // A comes from the friends list (the friend in navigation state)
    await a.page.goto('/friends');
    await a.page.getByRole('button', { name: `Message ${bName}` }).click();
    await a.page.waitForURL(`**/messages/${bea.userId}`);
    await a.page.getByRole('heading', { level: 1, name: bName }).waitFor();
    // B by a direct link (no navigation state): the friend is found by id among B's friends
    await b.page.goto(`/messages/${ada.userId}`);
    await b.page.getByRole('heading', { level: 1, name: aName }).waitFor();
    await connected(a.page);
    await connected(b.page);
    for (const page of [a.page, b.page]) {
      await page.getByText('No messages yet. Say hello!').waitFor();
    }

    // a conversation of 14, taking turns; each message appears on the other side with no reload
    const sent: string[] = [];
    for (let i = 1; i <= 14; i++) {
      const [from, to] = i % 2 === 1 ? [a.page, b.page] : [b.page, a.page];
      const text = `message ${String(i).padStart(2, '0')} from ${i % 2 === 1 ? 'Ada' : 'Bea'}`;
      await say(from, text);
      sent.push(text);
      await to.locator('.chat-messages > li.is-theirs', { hasText: text }).waitFor();
    }
    expect(await texts(a.page)).toEqual(sent);
    expect(await texts(b.page)).toEqual(sent);

    // blank text is not sent: Send stays disabled, Enter adds nothing; Shift+Enter is a new line
    await input(a.page).fill('   ');
    expect(await a.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await input(a.page).press('Enter');
    await input(a.page).fill('');
    await input(a.page).pressSequentially('see you');
    await input(a.page).press('Shift+Enter');
    await input(a.page).pressSequentially('in Lisbon');
    expect(await input(a.page).inputValue()).toBe('see you\nin Lisbon');
    await input(a.page).press('Enter');
    await b.page.locator('.chat-messages > li.is-theirs', { hasText: 'in Lisbon' }).waitFor();
    sent.push('see you\nin Lisbon');
    // exactly one more message on each side: the blank one was never sent
    expect(await texts(b.page)).toEqual(sent);
    await eventually(() => texts(a.page)).toEqual(sent);

    // the newest is in view in an area at most 500 px high
    const area = a.page.locator('.chat-area');
    const box = await area.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      maxHeight: getComputedStyle(el).maxHeight,
      atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 2,
    }));
    expect(box.maxHeight).toBe('500px');
    expect(box.height).toBeLessThanOrEqual(500);
    expect(box.atBottom).toBe(true);

    await animationsDone(a.page);
    await screenshot(a.page, 'chat-1440');
    await animationsDone(b.page);
    await screenshot(b.page, 'chat-375');

    // A opens the chat again: the latest 10, then Load more messages puts the 5 older in front
    await a.page.reload();
    await a.page.getByRole('heading', { level: 1, name: bName }).waitFor();
    await eventually(() => texts(a.page)).toEqual(sent.slice(-10));
    await loadMore(a.page).click();
    await eventually(() => texts(a.page)).toEqual(sent);
    // nothing older: the button goes
    await eventually(() => loadMore(a.page).count()).toBe(0);

    await a.context.close();
    await b.context.close();
  });

  it('shows the connection lost while chat is down, then catches up with what was missed, once', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const ada = await signUp(`Ada Offline ${tag}`, 'chat-down-a');
    const bName = `Bea Online ${tag}`;
    const bea = await signUp(bName, 'chat-down-b');
    await befriend(ada, bea);
    const a = await openAs(browser(), ada);
    const b = await openAs(browser(), bea);
    await a.page.goto(`/messages/${bea.userId}`);
    await b.page.goto(`/messages/${ada.userId}`);
    await connected(a.page);
    await connected(b.page);
    await say(a.page, 'before the outage');
    await b.page
      .locator('.chat-messages > li.is-theirs', { hasText: 'before the outage' })
      .waitFor();

    // every chat instance down: both screens say they are reconnecting
    await withServiceDown('chat', () =>
      withServiceDown('chat2', async () => {
        for (const page of [a.page, b.page]) {
          await page
            .getByRole('status')
            .filter({ hasText: 'Connection lost. Reconnecting…' })
            .waitFor({ timeout: 30_000 });
        }
        expect(await panel(a.page).getAttribute('data-connection')).toBe('reconnecting');
        await screenshot(a.page, 'chat-reconnecting-1440');
        // B opens the chat again meanwhile: the history fails, in red, with the server's message
        await b.page.reload();
        const failed = b.page.locator('.chat-history-error');
        await failed.waitFor();
        expect(await failed.getAttribute('role')).toBe('alert');
        expect(await failed.textContent()).toBe(
          'The chat service is unavailable right now. Please try again shortly.',
        );
        expect(await failed.evaluate((el) => getComputedStyle(el).color)).toBe(
          'rgb(255, 128, 128)',
        );
        await screenshot(b.page, 'chat-history-failed-1440');
      }),
    );

    // back: B's screen fetches the history it could not load; B says something as soon as B is
    // connected, whether A is back yet or not
    await connected(b.page);
    await eventually(() => texts(b.page)).toEqual(['before the outage']);
    expect(await b.page.locator('.chat-history-error').count()).toBe(0);
    await say(b.page, 'after the outage');
    await connected(a.page);
    await a.page
      .locator('.chat-messages > li.is-theirs', { hasText: 'after the outage' })
      .waitFor();
    expect(await texts(a.page)).toEqual(['before the outage', 'after the outage']);
    expect(await a.page.getByText('Connection lost. Reconnecting…').count()).toBe(0);

    await a.context.close();
    await b.context.close();
  });

  it('a chat with nobody chosen: no friend by that id says so', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const ada = await signUp(`Ada Alone ${tag}`, 'chat-none');
    const stranger = await signUp(`Sam Stranger ${tag}`, 'chat-stranger');
    const { context, page } = await openAs(browser(), ada, { width: 375, height: 812 });
    await page.goto(`/messages/${stranger.userId}`);
    await page.getByText('No friend selected to message.').waitFor();
    expect(await page.locator('.chat-panel').count()).toBe(0);
    await context.close();
  });
});
