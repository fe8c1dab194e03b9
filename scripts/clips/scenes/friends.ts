import type { Page } from 'playwright-core';
import { animationsDone, beat, imagesLoaded, mapIdle } from '../browser';
import { cameraSettled, infoWindow, pin, zoomToPin, type Scene } from '../scene';

/** Shows a friend's destination from the friends list: the map flies there, its window opens. */
async function showPlace(page: Page, name: string) {
  await page.getByRole('button', { name: `Show ${name} on the map` }).click();
  await cameraSettled(page);
  const heading = infoWindow(page).getByRole('heading', { name });
  if ((await heading.count()) === 0) {
    await zoomToPin(page, name);
    await pin(page, name).click();
    await cameraSettled(page);
  }
  await heading.waitFor();
  await infoWindow(page).locator('.carousel-photo').waitFor();
  await infoWindow(page).getByRole('region', { name: 'Journal (read-only)' }).waitFor();
  await infoWindow(page).locator('.journal-text').waitFor();
  await imagesLoaded(page);
  await animationsDone(page);
}

/** 3. Browsing friends' adventures: Maya's friends, their pins, a friend's read-only window. */
export const friends: Scene = {
  slug: 'friends',
  title: "Browsing friends' adventures",
  posterAt: 4,
  async film({ open, demo, film }) {
    const { page } = await open(demo.maya);
    await page.goto('/friends');
    const list = page.getByRole('list', { name: 'Your friends' });
    await list.getByText('Theo Okafor').waitFor();
    await list.getByText('Lena Moreau').waitFor();
    await page.locator('.map-pin, .map-cluster').first().waitFor();
    await mapIdle(page);
    await imagesLoaded(page);
    await animationsDone(page);
    return film(page, async (poster) => {
      await beat(page, 900);
      await showPlace(page, 'Marrakesh, Morocco');
      await beat(page, 300);
      poster();
      await beat(page, 800);
      await infoWindow(page).getByRole('button', { name: 'Next photo' }).click();
      await imagesLoaded(page);
      await beat(page, 1000);
      await infoWindow(page).getByRole('button', { name: 'Close' }).click();
      await infoWindow(page).waitFor({ state: 'detached' });
      await showPlace(page, 'Santorini, Greece');
      await beat(page, 1600);
    });
  },
};
