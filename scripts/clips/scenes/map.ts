import { animationsDone, beat, imagesLoaded, mapIdle } from '../browser';
import { cameraSettled, infoWindow, pin, zoomToPin, type Scene } from '../scene';

/** 1. An interactive map of journeys: Maya's trips as pins; the map zooms in, pins open. */
export const map: Scene = {
  slug: 'map',
  title: 'Interactive map of journeys',
  posterAt: 4.5,
  async film({ open, demo, film }) {
    const { page } = await open(demo.maya);
    await page.goto('/trips');
    await page.getByRole('list', { name: 'Your trips' }).waitFor();
    await mapIdle(page);
    await imagesLoaded(page);
    await animationsDone(page);
    return film(page, async (poster) => {
      await beat(page, 800);
      // the Norwegian cluster: clicks zoom the map in until its pins part
      await zoomToPin(page, 'Flåm');
      await beat(page, 200);
      await pin(page, 'Flåm').click();
      const window = infoWindow(page);
      await window.getByRole('heading', { name: 'Flåm, Norway' }).waitFor();
      await window.locator('.carousel-photo').waitFor();
      await window.locator('.journal-text').waitFor();
      await imagesLoaded(page);
      await animationsDone(page);
      await beat(page, 300);
      poster();
      await beat(page, 1100);
      await window.getByRole('button', { name: 'Close' }).click();
      await window.waitFor({ state: 'detached' });
      // out again, and over to Kyoto
      for (let i = 0; i < 3; i++) {
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await cameraSettled(page);
      }
      await beat(page, 200);
      await zoomToPin(page, 'Kyoto');
      await pin(page, 'Kyoto').click();
      await infoWindow(page).getByRole('heading', { name: 'Kyoto, Japan' }).waitFor();
      await infoWindow(page).locator('.carousel-photo').waitFor();
      await infoWindow(page).locator('.journal-text').waitFor();
      await imagesLoaded(page);
      await cameraSettled(page);
      await animationsDone(page);
      await beat(page, 1400);
    });
  },
};
