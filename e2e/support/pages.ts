import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Account } from './api';
import { animationsDone, baseUrl, mapIdle } from './browser';

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

/** The open dialog (a pin's info window) and the journal region inside it. */
export const dialog = (page: Page) => page.getByRole('dialog');
export const journal = (page: Page) => dialog(page).getByRole('region', { name: 'Journal' });

/** Pins plus the markers inside clusters, as the keyless map draws them. */
export function markerCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const pins = document.querySelectorAll('.map-pin').length;
    const clustered = Array.from(document.querySelectorAll<HTMLElement>('.map-cluster')).reduce(
      (sum, el) => sum + Number(el.dataset.count ?? 0),
      0,
    );
    return pins + clustered;
  });
}

/** The keyless map has loaded (its camera may still move). */
export async function mapReady(page: Page): Promise<void> {
  await page.locator('.keyless-map[data-ready="true"]').waitFor({ timeout: 30_000 });
}

/** Still, for a screenshot: the map's camera idle and every finite animation finished. */
export async function steady(page: Page): Promise<void> {
  await mapIdle(page);
  await animationsDone(page);
}

/** How far (px) the tip of the pin labelled `label` is from the map's centre, or null. */
async function offCentre(page: Page, label: string) {
  const pin = await page.locator(`.map-pin[aria-label^="${label}"]`).boundingBox();
  const map = await page.locator('.keyless-map').boundingBox();
  if (!pin || !map) return null;
  return {
    x: Math.abs(pin.x + pin.width / 2 - (map.x + map.width / 2)),
    y: Math.abs(pin.y + pin.height - (map.y + map.height / 2)),
  };
}

/**
 * Waits until a list's focus has flown the map to `label` (a React effect starts the flight),
 * centred along `axes`, and the camera is idle; returns the pin's final offset.
 */
export async function centredOn(
  page: Page,
  label: string,
  axes: readonly ('x' | 'y')[] = ['x', 'y'],
): Promise<{ x: number; y: number }> {
  await eventually(async () => {
    const off = await offCentre(page, label);
    return off !== null && axes.every((axis) => off[axis] < 20);
  }).toBe(true);
  await mapIdle(page);
  return (await offCentre(page, label))!;
}
