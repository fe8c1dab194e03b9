import { BUCKET_LIST } from '../../demo/data';
import { animationsDone, api, beat, imagesLoaded, mapIdle, type SignedIn } from '../browser';
import { cameraSettled, infoWindow, pin, zoomToPin, type Scene } from '../scene';
import { cloneDemoUser } from '../travellers';

const NEW_PLACE = { query: 'Buenos Aires', country: 'Argentina' };
const PLANS = ['Tango in San Telmo', 'Asado in Palermo Soho'];

/** A clone of Maya with the demo bucket list (its itineraries too). */
async function freshTraveller(baseUrl: string): Promise<SignedIn> {
  const who = await cloneDemoUser(baseUrl, 'maya');
  const json = { 'content-type': 'application/json' };
  for (const item of BUCKET_LIST) {
    const added = await api(baseUrl, who, '/api/bucketlist', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        place: item.place,
        latitude: item.latitude,
        longitude: item.longitude,
        isVisited: false,
      }),
    });
    if (added.status !== 201) throw new Error(`bucket list: ${added.status}`);
    const { data } = (await added.json()) as { data: { _id: string } };
    const saved = await api(baseUrl, who, '/api/itinerary', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ bucketListId: data._id, itinerary: item.itinerary }),
    });
    if (!saved.ok) throw new Error(`itinerary: ${saved.status}`);
  }
  return who;
}

/** 5. The bucket list: a place is added from the search, then its itinerary is planned. */
export const bucketList: Scene = {
  slug: 'bucket-list',
  title: 'The bucket list',
  posterAt: -0.5,
  async film({ baseUrl, open, film }) {
    const { page } = await open(await freshTraveller(baseUrl));
    await page.goto('/bucketlist');
    const list = page.getByRole('list', { name: 'Places to visit' });
    await list.getByText(BUCKET_LIST[0]!.place).waitFor();
    await page.locator('.map-pin, .map-cluster').first().waitFor();
    await mapIdle(page);
    await imagesLoaded(page);
    await animationsDone(page);
    const search = page.getByRole('combobox', { name: 'Search for a place' });
    const place = `${NEW_PLACE.query}, ${NEW_PLACE.country}`;
    return film(page, async () => {
      await beat(page, 400);
      await search.click();
      await search.pressSequentially(NEW_PLACE.query, { delay: 70 });
      const option = page
        .getByRole('option')
        .filter({ hasText: NEW_PLACE.query })
        .filter({ hasText: NEW_PLACE.country })
        .first();
      await option.waitFor();
      await beat(page, 400);
      await option.click();
      await beat(page, 400);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await list.getByText(place).waitFor();
      await cameraSettled(page);
      await beat(page, 600);
      await zoomToPin(page, place);
      await pin(page, place).click();
      const itinerary = infoWindow(page).getByRole('region', { name: 'Itinerary' });
      await itinerary.waitFor();
      await cameraSettled(page);
      await animationsDone(page);
      await beat(page, 400);
      const input = itinerary.getByRole('textbox', { name: 'New itinerary item' });
      for (const plan of PLANS) {
        await input.pressSequentially(plan, { delay: 35 });
        await input.press('Enter');
        await itinerary.locator('.itinerary-text', { hasText: plan }).waitFor();
        await beat(page, 400);
      }
      await itinerary.getByRole('button', { name: 'Save itinerary' }).click();
      await itinerary.getByText('Saved Successfully!').waitFor();
      await animationsDone(page);
      await beat(page, 1400);
    });
  },
};
