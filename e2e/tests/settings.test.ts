import { AccountMessages } from '@wayfarer/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { register, json } from '../support/account';
import { api } from '../support/api';
import { animationsDone, makePng, newPage, screenshot, useBrowser } from '../support/browser';
import { eventually, openAs } from '../support/pages';

/**
 * Settings (`/settings`) in headless Chromium against the real stack: the gateway and
 * auth (PostgreSQL, Redis, MinIO), the top bar, and closing an account for good.
 */

const avatarButton = (page: Page) => page.getByRole('button', { name: 'Open profile menu' });
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

describe('settings: name, picture, password and closing the account', () => {
  const browser = useBrowser();

  it('from the profile menu: a new name and picture show in the top bar at once; the password changes', async () => {
    const account = await register('Grace Traveller');
    const { context, page } = await openAs(browser(), account);
    await page.goto('/trips');

    // the menu by keyboard: Settings first, the arrows move, Enter opens it
    await avatarButton(page).focus();
    await page.keyboard.press('Enter');
    const settingsItem = page.getByRole('menuitem', { name: 'Settings' });
    await eventually(() => settingsItem.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(
      await page
        .getByRole('menuitem', { name: 'Logout' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await settingsItem.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe('Grace Traveller');
    await animationsDone(page);
    await screenshot(page, 'settings-1440');

    // nothing changed: said, nothing sent
    await page.getByRole('button', { name: 'Save profile' }).click();
    await eventually(() =>
      page.getByText('Change your name or choose a new picture first.').count(),
    ).toBe(1);

    // a new name and picture
    const before = await avatarButton(page).locator('img').getAttribute('src');
    await name.fill('Grace Hopper');
    await page
      .getByLabel('Profile picture')
      .setInputFiles({ name: 'grace.png', mimeType: 'image/png', buffer: makePng(72) });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await status(page, 'Your profile was saved.').waitFor();
    const avatar = avatarButton(page).locator('img');
    await eventually(() => avatar.getAttribute('src')).toMatch(/^\/api\/avatars\//);
    expect(await avatar.getAttribute('src')).not.toBe(before);
    await eventually(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(72);
    expect(await avatarButton(page).getAttribute('title')).toBe('Grace Hopper');
    await avatarButton(page).click();
    await page.getByText('Signed in as').filter({ hasText: 'Grace Hopper' }).waitFor();
    await page.keyboard.press('Escape');
    const details = (await (await api('/api/userDetails', account)).json()) as {
      username: string;
      profilePicture: string;
    };
    expect(details).toEqual({
      username: 'Grace Hopper',
      profilePicture: await avatar.getAttribute('src'),
    });
    // the form starts from the saved details
    expect(await name.inputValue()).toBe('Grace Hopper');
    await screenshot(page, 'settings-profile-saved-1440');

    // the password: a wrong current one is said under its field
    const newPassword = 'a brand new password';
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill('a brand new passwor');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The new passwords do not match.').waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(AccountMessages.wrongPassword).waitFor();
    expect(
      await page.getByLabel('Current password').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await status(page, AccountMessages.passwordChanged).waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    await screenshot(page, 'settings-password-changed-1440');

    // the new one signs in, the old one no longer does; this session stays
    const login = (password: string) =>
      api('/api/login', undefined, { method: 'POST', ...json({ email: account.email, password }) });
    expect((await login(newPassword)).status).toBe(200);
    expect((await login(account.password)).status).not.toBe(200);
    expect((await api('/api/protected', account)).status).toBe(200);
    await context.close();
  });

  it('closing the account: warned, the password, a last question, then /home and no way back in', async () => {
    const account = await register('Closing Traveller');
    {
      const { context, page } = await openAs(browser(), account, { width: 375, height: 812 });
      await page.goto('/settings');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await animationsDone(page);
      await screenshot(page, 'settings-375');
      await page.getByRole('heading', { name: 'Close your account' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-close-375');
      await context.close();
    }

    const { context, page } = await openAs(browser(), account);
    await page.goto('/settings');
    const close = page.getByRole('button', { name: 'Close account' });
    const password = page.getByLabel('Your password');
    const question = page.getByRole('alertdialog', { name: 'Close your account?' });

    // no password: said, nothing asked
    await close.click();
    await page.getByText(AccountMessages.passwordRequired).waitFor();
    expect(await question.isVisible()).toBe(false);

    // a wrong one: asked, then refused, said under the field; the account stays
    await password.fill('not my password');
    await close.click();
    await question.waitFor();
    // the safe answer has the focus
    expect(
      await question
        .getByRole('button', { name: 'No, keep it' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await question.getByRole('button', { name: 'Close my account' }).click();
    await page.getByText(AccountMessages.wrongPassword).waitFor();
    await eventually(() => question.isVisible()).toBe(false);
    expect((await api('/api/protected', account)).status).toBe(200);

    // No (Escape) keeps it
    await password.fill(account.password);
    await close.click();
    await question.waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => question.isVisible()).toBe(false);
    expect((await api('/api/protected', account)).status).toBe(200);

    await close.click();
    await question.waitFor();
    await animationsDone(page);
    await screenshot(page, 'settings-close-question-1440');
    await question.getByRole('button', { name: 'Close my account' }).click();
    await page.waitForURL('**/home');
    // the landing page says what auth answered has happened, no more
    await page.getByRole('status').filter({ hasText: AccountMessages.accountDeleted }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toBeNull();
    // signed out: a protected page sends the visitor home
    await page.goto('/trips');
    await page.waitForURL('**/home');
    await context.close();

    // and the account is gone: its email and password no longer sign in
    const visitor = await newPage(browser());
    await visitor.page.goto('/login');
    await visitor.page.getByLabel('Email').fill(account.email);
    await visitor.page.getByLabel('Password').fill(account.password);
    await visitor.page.getByRole('button', { name: 'Log In' }).click();
    await eventually(() =>
      visitor.page.getByRole('alert').filter({ hasText: 'Invalid login details.' }).count(),
    ).toBe(1);
    expect(visitor.page.url()).toMatch(/\/login$/);
    expect((await api('/api/protected', account)).status).toBe(401);
    await visitor.context.close();
  });
});
