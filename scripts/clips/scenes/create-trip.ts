import type { Page } from 'playwright-core';
import { landscapeJpeg, seedOf } from '../../demo/images';
import { animationsDone, api, beat, imagesLoaded, mapIdle, type SignedIn } from '../browser';
import { cameraSettled, type Scene } from '../scene';

const TRIP = {
  name: 'A long weekend in Edinburgh',
  start: '2026-05-01',
  end: '2026-05-04',
  place: 'Edinburgh',
  story: 'Arthur’s Seat at sunrise, then the closes of the Old Town.',
};

/** Deletes Maya's trips of this clip (a run leaves none behind; a failed run's too). */
async function deleteClipTrips(baseUrl: string, who: SignedIn) {
  const res = await api(baseUrl, who, '/api/mytrips');
  if (!res.ok) throw new Error(`mytrips: ${res.status}`);
  const trips = (await res.json()) as { _id: string; name: string }[];
  for (const trip of trips.filter((t) => t.name === TRIP.name)) {
    const gone = await api(baseUrl, who, `/api/trips/${trip._id}`, { method: 'DELETE' });
    if (!gone.ok) throw new Error(`delete trip: ${gone.status}`);
  }
}

/** Types like a person, a little faster than one. */
async function type(page: Page, label: string, text: string, delay = 40) {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.pressSequentially(text, { delay });
}

/** 4. Creating trips: a name, dates, a destination from the place search, a photo, saved. */
export const createTrip: Scene = {
  slug: 'create-trip',
  title: 'Creating trips',
  posterAt: -0.5,
  async film({ baseUrl, demo, open, film }) {
    await deleteClipTrips(baseUrl, demo.maya);
    const photo = await landscapeJpeg(
      {
        kind: 'city',
        sky: ['#5b6f9c', '#f2b880'],
        ground: '#2a3347',
        relief: '#20283a',
        sun: [0.2, 0.3],
      },
      seedOf(TRIP.name),
    );
    try {
      const { page } = await open(demo.maya);
      await page.goto('/addTrip');
      await page.getByRole('heading', { name: 'Add Trip' }).waitFor();
      await mapIdle(page);
      await animationsDone(page);
      return await film(page, async () => {
        await beat(page, 400);
        await type(page, 'Trip name', TRIP.name);
        await page.getByLabel('Start date', { exact: true }).fill(TRIP.start);
        await page.getByLabel('End date', { exact: true }).fill(TRIP.end);
        await beat(page, 200);
        const place = page.getByRole('combobox', { name: 'Destination' });
        await place.click();
        await place.pressSequentially(TRIP.place, { delay: 70 });
        const option = page.getByRole('option').filter({ hasText: TRIP.place }).first();
        await option.waitFor();
        await beat(page, 300);
        await option.click();
        await page.getByLabel('From', { exact: true }).fill(TRIP.start);
        await page.getByLabel('To', { exact: true }).fill(TRIP.end);
        await type(page, 'Story', TRIP.story, 20);
        await page
          .locator('input[type="file"]')
          .setInputFiles({ name: 'old-town.jpg', mimeType: 'image/jpeg', buffer: photo });
        await page.getByRole('img', { name: 'old-town.jpg' }).waitFor();
        await imagesLoaded(page);
        await beat(page, 300);
        await page.getByRole('button', { name: 'Add destination' }).click();
        await page.locator('.draft-item').first().waitFor();
        await cameraSettled(page);
        await animationsDone(page);
        await beat(page, 600);
        await page.getByRole('button', { name: 'Save trip' }).click();
        await page.waitForURL('**/trip/*', { timeout: 30_000 });
        await page.getByRole('heading', { name: TRIP.name }).waitFor();
        await page.locator('.destination-item').first().waitFor();
        await imagesLoaded(page);
        await cameraSettled(page);
        await animationsDone(page);
        await beat(page, 1500);
      });
    } finally {
      await deleteClipTrips(baseUrl, demo.maya);
    }
  },
};
