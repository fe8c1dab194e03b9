import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Account } from './api';
import { baseUrl } from './browser';

/** A browser context signed in as `account` (its session cookie), and a page in it. */
export async function openAs(
  browser: Browser,
  account: Account,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  await context.addCookies([{ ...account.cookie, url: baseUrl() }]);
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[page error] ${err.message}\n`));
  return { context, page };
}

/** `expect.poll` with room for a real stack under load (vitest's default is 1 s). */
export const eventually = <T>(fn: () => Promise<T> | T, timeout = 10_000) =>
  expect.poll(fn, { timeout, interval: 100 });

/** Types into the destination autocomplete and picks the suggestion that mentions `country`. */
export async function pickPlace(page: Page, query: string, country: string): Promise<void> {
  const input = page.getByRole('combobox', { name: 'Destination' });
  await input.fill('');
  await input.pressSequentially(query, { delay: 25 });
  const option = page.getByRole('option').filter({ hasText: query }).filter({ hasText: country });
  await option.first().waitFor();
  await option.first().click();
  await eventually(() => input.inputValue()).toBe(`${query}, ${country}`);
}
