import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Camera, type Footage } from './capture';
import type { SignedIn } from './browser';
import type { UserKey } from '../demo/data';
import { mapIdle } from './browser';

/** The encoded size of every clip (the screencast scales the 1200x750 viewport down to it). */
export const CLIP_SIZE = { width: 960, height: 600 };

export interface SceneContext {
  baseUrl: string;
  browser: Browser;
  /** The demo users, signed in through the API. */
  demo: Record<UserKey, SignedIn>;
  /**
   * A browser context signed in as `who` (closed after the scene; screenshotted into
   * /tmp/clip-failures when the scene fails).
   */
  open(who: SignedIn): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Films `page` while `action` runs (the set-up before it is not in the clip); `action` may
   * call `poster()` at a settled moment to make the frame on screen the poster.
   */
  film(page: Page, action: (poster: () => void) => Promise<void>): Promise<Footage>;
}

/** One landing-page clip: what it shows, and how to film it from the running product. */
export interface Scene {
  slug: string;
  /** What the clip shows (the landing page's caption topic). */
  title: string;
  /**
   * Seconds into the clip of the poster frame when the scene marks none with `poster()` (a
   * settled, representative moment; negative: before its end).
   */
  posterAt: number;
  /** Quality overrides for a busy clip (see encode.ts for the defaults). */
  vp9Crf?: number;
  h264Crf?: number;
  film(ctx: SceneContext): Promise<Footage>;
}

export async function filmPage(
  page: Page,
  action: (poster: () => void) => Promise<void>,
): Promise<Footage> {
  const camera = new Camera(page, CLIP_SIZE);
  await camera.start();
  try {
    await action(() => camera.markPoster());
  } catch (err) {
    await camera.stop().catch(() => {});
    throw err;
  }
  return camera.stop();
}

/** A pin (or the first pin) whose label starts with `name`. */
export const pin = (page: Page, name: string) =>
  page.locator(`.map-pin[aria-label^="${name}"]`).first();

/** The open info window. */
export const infoWindow = (page: Page) => page.getByRole('dialog');

/**
 * Clicks clusters (each zooms the map in on its places) until the pin `name` stands alone,
 * waiting for each flight to end.
 */
export async function zoomToPin(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    if ((await pin(page, name).count()) > 0) return;
    await page.locator('.map-cluster').first().click();
    await cameraSettled(page);
  }
  await pin(page, name).waitFor({ timeout: 5_000 });
}

/** After an action that moves the map: the move has started (if it does) and has ended. */
export async function cameraSettled(page: Page): Promise<void> {
  await page
    .locator('.keyless-map:not([data-camera="idle"])')
    .waitFor({ timeout: 1_500 })
    .catch(() => {});
  await mapIdle(page);
}
