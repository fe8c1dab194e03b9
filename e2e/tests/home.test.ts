import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../support/api';
import { artifacts, baseUrl, newPage, screenshot, useBrowser } from '../support/browser';

/**
 * The landing page /home against the real stack: the gateway serves the built
 * frontend and the clips recorded from the product (frontend/public/clips); the session check
 * goes to the real auth service.
 */

const SLUGS = ['map', 'stories', 'friends', 'create-trip', 'bucket-list', 'chat'];

const feature = (page: Page, slug: string) => page.locator(`section[data-feature="${slug}"]`);
const caption = (page: Page, slug: string) => feature(page, slug).locator('.feature-caption');
const video = (page: Page, slug: string) => feature(page, slug).locator('video');
const bar = (page: Page) => page.getByRole('banner');

/** The state of a clip's <video>, read in the page. */
function clipState(page: Page, slug: string) {
  return video(page, slug).evaluate((v: HTMLVideoElement) => ({
    paused: v.paused,
    currentTime: v.currentTime,
    poster: v.getAttribute('poster'),
    source: v.currentSrc,
  }));
}

/** Loads an image URL in the page and returns its natural width (0: it did not load). */
function imageWidth(page: Page, url: string) {
  return page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(0);
        img.src = src;
      }),
    url,
  );
}

async function fullPageScreenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

describe('the landing page /home', () => {
  const browser = useBrowser();

  it('renders for a visitor: hero, six feature sections, two slogans, a fixed top bar', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/home');
    await page
      .getByRole('heading', { level: 1, name: 'Every journey deserves a place on the map.' })
      .waitFor();
    expect(await page.locator('section[data-feature]').count()).toBe(6);
    expect(
      await page
        .locator('section[data-feature]')
        .evaluateAll((sections) => sections.map((s) => s.getAttribute('data-feature'))),
    ).toEqual(SLUGS);
    for (const slug of SLUGS) {
      expect(await feature(page, slug).locator('h3').textContent()).toMatch(/\w/);
      expect(await video(page, slug).getAttribute('aria-label')).toMatch(/^Screen recording/);
    }
    expect(await page.locator('[data-slogan]').count()).toBe(2);
    expect(await page.locator('[data-slogan] .slogan-text').allTextContents()).toEqual([
      'Every pin holds a story.',
      'Someday is a date you plan with friends.',
    ]);
    await bar(page).getByRole('link', { name: 'Log In' }).waitFor();
    await bar(page).getByRole('link', { name: 'Sign Up' }).waitFor();

    expect((await bar(page).boundingBox())?.y).toBe(0);
    await caption(page, 'bucket-list').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    expect((await bar(page).boundingBox())?.y).toBe(0);
    // the bar stays on top of the page: nothing of the page is drawn over it
    expect(
      await page.evaluate(() => {
        const el = document.elementFromPoint(window.innerWidth / 2, 10);
        return Boolean(el?.closest('.landing-bar'));
      }),
    ).toBe(true);
    await context.close();
  });

  it('fades captions in as they scroll into view (an IntersectionObserver adds is-visible)', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // the first caption may show at once on a tall screen; the last is far below the fold
    const last = caption(page, 'chat');
    expect(await last.getAttribute('class')).not.toContain('is-visible');
    expect(await last.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');

    await last.scrollIntoViewIfNeeded();
    await expect.poll(() => last.getAttribute('class')).toContain('is-visible');
    await expect.poll(() => last.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    // a caption between stays hidden until it is scrolled to, then shows
    const middle = caption(page, 'friends');
    expect(await middle.getAttribute('class')).not.toContain('is-visible');
    await middle.scrollIntoViewIfNeeded();
    await expect.poll(() => middle.getAttribute('class')).toContain('is-visible');
    await context.close();
  });

  it('Log In and Sign Up go to their screens', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/home');
    await bar(page).getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { level: 1, name: 'Welcome back' }).waitFor();

    await page.goto('/home');
    await bar(page).getByRole('link', { name: 'Sign Up' }).click();
    await page.waitForURL('**/register');
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await context.close();
  });

  it('with reduced motion shows every poster and plays no video (screenshots at 1440 and 375)', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      const context = await browser().newContext({
        baseURL: baseUrl(),
        viewport,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      const mediaRequests: string[] = [];
      page.on('request', (r) => {
        if (/\/clips\/.*\.(?:webm|mp4)$/.test(r.url())) mediaRequests.push(r.url());
      });
      await page.goto('/home');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(
        await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches),
      ).toBe(true);

      for (const slug of SLUGS) {
        await video(page, slug).scrollIntoViewIfNeeded();
        await expect
          .poll(() => video(page, slug).getAttribute('poster'))
          .toBe(`/clips/${slug}.jpg`);
        // the poster is a real image the gateway serves
        expect(await imageWidth(page, `/clips/${slug}.jpg`)).toBeGreaterThan(0);
        // captions show at once (no transition), but still by the observer's class
        await caption(page, slug).scrollIntoViewIfNeeded();
        await expect.poll(() => caption(page, slug).getAttribute('class')).toContain('is-visible');
        expect(await caption(page, slug).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      }
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      for (const slug of SLUGS) {
        const state = await clipState(page, slug);
        expect(state, slug).toMatchObject({ paused: true, currentTime: 0 });
      }
      expect(mediaRequests).toEqual([]);

      await fullPageScreenshot(page, `home-${viewport.width}`);
      // nothing overflows sideways
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      await context.close();
    }
  });

  it('plays a clip scrolled into view, muted and inline, and pauses it once out of view', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const slug = 'friends';
    // below the fold at first: nothing loaded yet
    expect((await clipState(page, slug)).source).toBe('');

    await video(page, slug).scrollIntoViewIfNeeded();
    await expect
      .poll(() => clipState(page, slug), { timeout: 20_000 })
      .toMatchObject({ paused: false, currentTime: expect.any(Number) });
    await expect.poll(() => clipState(page, slug).then((s) => s.currentTime)).toBeGreaterThan(0);
    const state = await clipState(page, slug);
    expect(state.source).toMatch(/\/clips\/friends\.(webm|mp4)$/);
    expect(await video(page, slug).evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);

    await caption(page, 'chat').scrollIntoViewIfNeeded();
    await expect.poll(() => clipState(page, slug).then((s) => s.paused)).toBe(true);
    await context.close();
  });

  it('shows a signed-in traveller the landing with a way into the app', async () => {
    const account = await signUp('Landing Visitor', 'landing');
    const context = await browser().newContext({
      baseURL: baseUrl(),
      viewport: { width: 1440, height: 900 },
    });
    await context.addCookies([{ ...account.cookie, url: baseUrl() }]);
    const page = await context.newPage();
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const open = bar(page).getByRole('link', { name: 'Open my map' });
    await open.waitFor();
    expect(await bar(page).getByRole('link', { name: 'Log In' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/home');
    expect(await page.locator('section[data-feature]').count()).toBe(6);
    await screenshot(page, 'home-signed-in-1440');

    await open.click();
    await page.waitForURL('**/trips');
    await page.getByRole('link', { name: 'Bucket List' }).waitFor();
    await context.close();
  });
});
