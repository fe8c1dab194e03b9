import { animationsDone, beat, imagesLoaded, mapIdle } from '../browser';
import { cameraSettled, infoWindow, pin, zoomToPin, type Scene } from '../scene';

/** 1. An interactive map of journeys: Maya's trips as pins; the map zooms in, pins open. */
export const map: Scene = {
  slug: 'map',
  title: 'Interactive map of journeys',
  posterAt: 5.5,
  async film({ open, demo, film }) {
    const { page } = await open(demo.maya);
    await page.goto('/trips');
    await page.getByRole('list', { name: 'Your trips' }).waitFor();
    await mapIdle(page);
    await imagesLoaded(page);
    await animationsDone(page);
    return film(page, async () => {
      await beat(page, 1200);
      // the Norwegian cluster: clicks zoom the map in until its pins part
      await zoomToPin(page, 'Flåm');
      await beat(page, 700);
      await pin(page, 'Flåm').click();
      const window = infoWindow(page);
      await window.getByRole('heading', { name: 'Flåm, Norway' }).waitFor();
      await window.locator('.carousel-photo').waitFor();
      await imagesLoaded(page);
      await animationsDone(page);
      await beat(page, 1800);
      await window.getByRole('button', { name: 'Close' }).click();
      await window.waitFor({ state: 'detached' });
      // out again, and over to Kyoto
      for (let i = 0; i < 3; i++) {
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await cameraSettled(page);
      }
      await beat(page, 400);
      await zoomToPin(page, 'Kyoto');
      await pin(page, 'Kyoto').click();
      await infoWindow(page).getByRole('heading', { name: 'Kyoto, Japan' }).waitFor();
      await infoWindow(page).locator('.carousel-photo').waitFor();
      await imagesLoaded(page);
      await cameraSettled(page);
      await animationsDone(page);
      await beat(page, 1800);
    });
  },
};
