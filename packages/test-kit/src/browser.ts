/// <reference lib="dom" />
// (page.waitForFunction callbacks run in the browser)
/**
 * Debian's Chromium, headless, through playwright-core: the one launch of the e2e tests, the
 * frontend's component tests, the web benches and the clip recorder (scripts/clips, which runs
 * outside vitest: this module imports no vitest, and neither does anything it imports).
 */
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';

/** Where Chromium is unless `CHROMIUM_PATH` says otherwise (Debian's `chromium` package). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags this network needs: headless, no sandbox, no GPU, nothing fetched on its own. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The Chromium to launch: `CHROMIUM_PATH`, else {@link DEFAULT_CHROMIUM_PATH}. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
}

/**
 * Launches Chromium with {@link CHROMIUM_FLAGS}. `options` go to playwright's `launch` as they
 * are, but for `args`, which come after the flags (e.g. `['--hide-scrollbars']`); an
 * `executablePath` there wins over {@link chromiumPath}.
 */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const { args = [], executablePath, ...rest } = options;
  return chromium.launch({
    ...rest,
    executablePath: executablePath ?? chromiumPath(),
    args: [...CHROMIUM_FLAGS, ...args],
  });
}

/**
 * Waits until every finite CSS animation and transition on the page has finished (a menu's
 * fade-in, a dialog's slide): what a screenshot should wait for. Endless ones (spinners,
 * skeletons) are left out.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * Waits until the keyless map has loaded and its camera is idle (`data-camera="idle"`: no move
 * in progress, the last frame drawn). A move started by a click on the map is covered; one
 * started by a React effect (a list's focus) may not have begun yet: wait for its outcome first.
 */
export async function mapIdle(page: Page): Promise<void> {
  await page
    .locator('.keyless-map[data-ready="true"][data-camera="idle"]')
    .waitFor({ timeout: 30_000 });
}
