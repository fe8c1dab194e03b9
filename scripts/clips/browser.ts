/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser)
import { launchChromium } from '@wayfarer/test-kit/browser';

export { animationsDone, mapIdle } from '@wayfarer/test-kit/browser';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The CSS viewport every clip is filmed at: the product's desktop layout (from 1024 px). */
export const VIEWPORT = { width: 1200, height: 750 };

/**
 * Debian's Chromium, headless, with the flags this network needs (`@wayfarer/test-kit/browser`),
 * and no scrollbars in the film.
 */
export function launchBrowser(): Promise<Browser> {
  return launchChromium({ args: ['--hide-scrollbars'] });
}

export interface SignedIn {
  id: string;
  name: string;
  cookie: { name: string; value: string };
}

/** Logs in through the public API (the same call the login form makes). */
export async function logIn(baseUrl: string, email: string, password: string): Promise<SignedIn> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`log in ${email}: ${res.status} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string; name: string } };
  return { id: user.id, name: user.name, cookie: cookieOf(res) };
}

export function cookieOf(res: Response): { name: string; value: string } {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
  if (!raw) throw new Error('no session cookie in the answer');
  const pair = raw.split(';', 1)[0]!;
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
}

/** `fetch` on the gateway as `who`. */
export function api(
  baseUrl: string,
  who: SignedIn,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('cookie', `${who.cookie.name}=${who.cookie.value}`);
  return fetch(`${baseUrl}${path}`, { ...init, headers });
}

/** A browser context signed in as `who`, as a login leaves it (cookie + user id in storage). */
export async function openAs(
  browser: Browser,
  baseUrl: string,
  who: SignedIn,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    reducedMotion: 'no-preference',
  });
  await context.addCookies([{ ...who.cookie, url: baseUrl }]);
  await context.addInitScript((id) => localStorage.setItem('userId', id), who.id);
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  return { context, page };
}

/** Every image on the page that has a source has loaded (photos, avatars, thumbnails). */
export async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.images).every((img) => !img.currentSrc || img.complete),
  );
}

/** A pause between two user actions: pacing for the viewer, not a wait for state. */
export function beat(page: Page, ms: number): Promise<void> {
  return page.waitForTimeout(ms);
}
