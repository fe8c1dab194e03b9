import type { Page } from 'playwright-core';
import { CONVERSATIONS } from '../../demo/data';
import { animationsDone, beat, imagesLoaded } from '../browser';
import type { Scene } from '../scene';
import { cloneDemoUser, makeFriends } from '../travellers';

/** What Maya and Theo say live, after the demo conversation (who, what). */
const LIVE: readonly (readonly ['maya' | 'theo', string])[] = [
  ['maya', 'Found flights: Lisbon on April 17, back on the 21st?'],
  ['theo', 'Works for me. Booking mine now.'],
  ['theo', 'Sintra on Saturday, then pastéis de nata in Belém?'],
  ['maya', 'Deal! Adding both to our itinerary.'],
];

const box = (page: Page) => page.getByRole('textbox', { name: /^Message / });

/** Opens the chat with `friend` and waits until its socket is connected and history shown. */
async function openChat(page: Page, friend: { id: string; name: string }) {
  await page.goto(`/messages/${friend.id}`);
  await page.getByRole('heading', { level: 1, name: friend.name }).waitFor();
  await page.locator('.chat-panel[data-connection="connected"]').waitFor({ timeout: 30_000 });
}

/** Sends `text` from `page` (typed at `delay` ms a key, 0: at once); returns once it is sent. */
async function say(page: Page, text: string, delay = 0) {
  if (delay > 0) await box(page).pressSequentially(text, { delay });
  else await box(page).fill(text);
  await box(page).press('Enter');
  await page.locator('.chat-messages > li[data-status="sent"]', { hasText: text }).waitFor();
}

/**
 * 6. Chatting to plan together: two browser contexts, Maya's screen filmed, Theo typing in the
 * other; his replies arrive live over the chat socket.
 */
export const chat: Scene = {
  slug: 'chat',
  title: 'Chatting to plan together',
  posterAt: -0.3,
  async film({ baseUrl, open, film }) {
    // a fresh pair each run: the live lines are never a repeat of the last run's
    const maya = await cloneDemoUser(baseUrl, 'maya');
    const theo = await cloneDemoUser(baseUrl, 'theo');
    await makeFriends(baseUrl, maya, theo);
    const m = await open(maya);
    const t = await open(theo);
    await openChat(m.page, theo);
    await openChat(t.page, maya);
    // their demo conversation so far, sent through the same screens (not filmed)
    const history = CONVERSATIONS.find((c) => c.between.join() === 'maya,theo')!.messages;
    for (const [who, text] of history) await say(who === 'maya' ? m.page : t.page, text);
    const last = history.at(-1)![1];
    await m.page.locator('.chat-messages > li', { hasText: last }).waitFor();
    await imagesLoaded(m.page);
    await animationsDone(m.page);
    await box(m.page).click();
    // the whole panel in view, its input too
    await m.page.getByRole('button', { name: 'Send' }).scrollIntoViewIfNeeded();
    await animationsDone(m.page);
    return film(m.page, async () => {
      await beat(m.page, 700);
      for (const [who, text] of LIVE) {
        if (who === 'maya') {
          await say(m.page, text, 35);
        } else {
          // Theo types in his own window; a moment later it is on Maya's screen
          await say(t.page, text);
          await m.page.locator('.chat-messages > li.is-theirs', { hasText: text }).waitFor();
        }
        await animationsDone(m.page);
        await beat(m.page, who === 'theo' ? 1100 : 700);
      }
      await beat(m.page, 800);
    });
  },
};
