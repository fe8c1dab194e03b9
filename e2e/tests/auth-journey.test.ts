import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  animationsDone,
  launchBrowser,
  makePng,
  newPage,
  screenshot,
  uniqueEmail,
} from '../support/browser';

describe('auth journey in headless Chromium', () => {
  let browser: Browser;
  const email = uniqueEmail('traveller');
  const password = 'correct horse battery';

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('registers with a picture, stays signed in across a reload, and logs out', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/register');
    await page.getByLabel('Name').fill('Ada Traveller');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page
      .getByLabel('Profile picture')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await screenshot(page, 'register-filled');
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await page.waitForURL('**/trips');
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toMatch(/\S+/);
    const avatar = page.getByRole('button', { name: 'Open profile menu' }).locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/api\/avatars\//);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    await page.locator('.maplibregl-canvas').waitFor({ state: 'visible' });
    await screenshot(page, 'layout-shell');

    await page.reload();
    await page.waitForURL('**/trips');
    await expect.poll(() => page.getByRole('link', { name: 'Bucket List' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Open profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor({ state: 'visible' });
    await animationsDone(page); // the menu's fade-in, for the screenshot
    await screenshot(page, 'layout-shell-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/home');
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toBeNull();

    // the old session is gone: a protected page sends the visitor home
    await page.goto('/trips');
    await page.waitForURL('**/home');
    await context.close();
  });

  it('sends a signed-out visitor from a protected URL to /home', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/friends');
    await page.waitForURL('**/home');
    await context.close();
  });

  it("says 'Invalid login details.' for a wrong password, then logs in with the right one", async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await screenshot(page, 'login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Invalid login details.' }).count())
      .toBe(1);
    await screenshot(page, 'login-error');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/trips');
    await context.close();
  });

  it("shows '404: Page Not Found' for an unknown path", async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByText('404: Page Not Found').count()).toBe(1);
    await context.close();
  });
});
