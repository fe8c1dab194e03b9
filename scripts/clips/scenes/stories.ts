/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser)
import type { Page } from 'playwright-core';
import { animationsDone, beat, imagesLoaded, mapIdle } from '../browser';
import { cameraSettled, infoWindow, pin, zoomToPin, type Scene } from '../scene';

/** Chooses a destination of the open trip and opens its info window (its pin if needed). */
async function openDestination(page: Page, name: string) {
  await page.locator('.destination-item').filter({ hasText: name }).click();
  await cameraSettled(page);
  await beat(page, 300);
  const heading = infoWindow(page).getByRole('heading', { name });
  if ((await heading.count()) === 0) {
    await zoomToPin(page, name);
    await pin(page, name).click();
    await cameraSettled(page);
  }
  await heading.waitFor();
  await infoWindow(page).locator('.carousel-photo').waitFor();
  await infoWindow(page).locator('.journal-text').waitFor();
  await imagesLoaded(page);
  await animationsDone(page);
}

/** The photo carousel shows its next photo, loaded and settled. */
async function nextPhoto(page: Page) {
  await infoWindow(page).getByRole('button', { name: 'Next photo' }).click();
  await imagesLoaded(page);
  await animationsDone(page);
}

/** Scrolls the info window's body smoothly by `px` (to read on in the journal). */
async function scrollWindow(page: Page, px: number) {
  await infoWindow(page).evaluate((el, by) => {
    const scroller = [el, ...el.querySelectorAll('*')].find(
      (e) => e.scrollHeight > e.clientHeight + 4 && getComputedStyle(e).overflowY !== 'visible',
    );
    scroller?.scrollBy({ top: by, behavior: 'smooth' });
  }, px);
  await beat(page, 700);
}

/** 2. Stories and photos on destinations: a destination's photo carousel and its journal. */
export const stories: Scene = {
  slug: 'stories',
  title: 'Stories and photos on destinations',
  posterAt: 0.8,
  async film({ open, demo, film }) {
    const { page } = await open(demo.maya);
    await page.goto('/trips');
    await page.getByRole('link', { name: /Norwegian fjords/ }).click();
    await page.waitForURL('**/trip/*');
    await page.locator('.destination-item').filter({ hasText: 'Bergen' }).waitFor();
    await mapIdle(page);
    await openDestination(page, 'Bergen, Norway');
    return film(page, async () => {
      await beat(page, 1000);
      await nextPhoto(page);
      await beat(page, 1000);
      await scrollWindow(page, 260);
      await beat(page, 1400);
      await infoWindow(page).getByRole('button', { name: 'Close' }).click();
      await infoWindow(page).waitFor({ state: 'detached' });
      await openDestination(page, 'Flåm, Norway');
      await beat(page, 1000);
      await nextPhoto(page);
      await beat(page, 1300);
    });
  },
};
