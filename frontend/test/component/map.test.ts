import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fitView } from '../../src/map/viewport';
import {
  readView,
  recordWheels,
  screenshot,
  settledView,
  useHarness,
  waitForMap,
} from './support/harness';

/**
 * The map component (WorldMap, keyless provider) in headless Chromium, mounted by the harness
 * page with fixture markers: no stack behind it. The map with the real app and services is
 * covered by e2e/tests/map.test.ts.
 */

/** The harness's fixture positions (frontend/harness/fixtures.ts). */
const LISBON = { lat: 38.7223, lng: -9.1393 };
const PORTO = { lat: 41.1579, lng: -8.6291 };
const KYOTO = { lat: 35.0116, lng: 135.7681 };
const REYKJAVIK = { lat: 64.1466, lng: -21.9426 };
const FIXTURE = [LISBON, PORTO, KYOTO, REYKJAVIK];

const WIDTHS = [375, 800, 1440] as const;
const dialog = (page: Page) => page.getByRole('dialog');

async function mapBox(page: Page) {
  const box = await page.locator('.keyless-map').boundingBox();
  if (!box) throw new Error('map not laid out');
  return box;
}

/** Zooms in on the Lisbon/Porto cluster until both pins show. */
async function openCluster(page: Page) {
  await page.locator('.map-cluster').click();
  await expect.poll(() => page.locator('.map-pin[data-marker-id="porto"]').count()).toBe(1);
  await settledView(page);
}

describe('the map in headless Chromium (keyless provider, harness)', () => {
  const started = useHarness();

  it('shows an empty map centred at 0,0 at zoom 2, at every breakpoint height', async () => {
    for (const width of WIDTHS) {
      const { context, page } = await started.open({ width, height: 900, query: 'markers=none' });
      await waitForMap(page);
      const view = await settledView(page);
      expect(view.zoom).toBeCloseTo(2, 6);
      expect(view.lat).toBeCloseTo(0, 6);
      expect(view.lng).toBeCloseTo(0, 6);
      expect(await page.locator('.map-pin, .map-cluster').count()).toBe(0);
      const column = (await page.locator('.map-column').boundingBox())!;
      // 60vh under 640 px, 70vh under 1024 px, else the full height
      const expected = width < 640 ? 540 : width < 1024 ? 630 : 900;
      expect(Math.round(column.height)).toBe(expected);
      await screenshot(page, `map-empty-${width}`);
      await context.close();
    }
  });

  it('renders pins and a cluster of the two close ones, fitted and clamped', async () => {
    const { context, page } = await started.open({ width: 1440 });
    await waitForMap(page);
    const view = await settledView(page);
    const box = await mapBox(page);
    const fit = fitView(FIXTURE, { width: box.width, height: box.height });
    expect(view.zoom).toBeCloseTo(fit.zoom, 2);
    expect(view.zoom).toBeGreaterThanOrEqual(2);
    expect(view.zoom).toBeLessThanOrEqual(6.5);

    // the friend's pin, the bucket pin and one cluster for Lisbon + Porto
    await expect.poll(() => page.locator('.map-pin').count()).toBe(2);
    expect(await page.locator('.map-pin--friend').count()).toBe(1);
    expect(await page.locator('.map-pin--bucket').count()).toBe(1);
    const cluster = page.locator('.map-cluster');
    expect(await cluster.count()).toBe(1);
    expect(await cluster.textContent()).toBe('2');

    // pins are 30x30 and every marker is inside the map
    const pin = await page.locator('.map-pin--friend').boundingBox();
    expect(pin && [Math.round(pin.width), Math.round(pin.height)]).toEqual([30, 30]);
    for (const el of await page.locator('.map-pin, .map-cluster').all()) {
      const b = (await el.boundingBox())!;
      // half a pixel of slack: positions may land on sub-pixels
      expect(b.x).toBeGreaterThanOrEqual(box.x - 0.5);
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(b.y).toBeGreaterThanOrEqual(box.y - 0.5);
      expect(b.y + b.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    }
    await screenshot(page, 'map-markers-1440');

    // the cluster opens into its two pins
    await openCluster(page);
    expect((await readView(page)).zoom).toBeGreaterThan(view.zoom);
    expect(await page.locator('.map-pin--own').count()).toBe(2);
    await context.close();

    for (const width of [375, 800]) {
      const small = await started.open({ width });
      await waitForMap(small.page);
      await settledView(small.page);
      await expect.poll(() => small.page.locator('.map-cluster').count()).toBe(1);
      await small.page.locator('.keyless-map').scrollIntoViewIfNeeded();
      await screenshot(small.page, `map-markers-${width}`);
      await small.context.close();
    }
  });

  it('clamps the fitted zoom: one marker at 6.5, markers all over the world at 2', async () => {
    const one = await started.open({ width: 1440, query: 'markers=single' });
    await waitForMap(one.page);
    const single = await settledView(one.page);
    expect(single.zoom).toBeCloseTo(6.5, 6);
    expect(single.lat).toBeCloseTo(LISBON.lat, 4);
    expect(single.lng).toBeCloseTo(LISBON.lng, 4);
    await one.context.close();

    const world = await started.open({ width: 1440, query: 'markers=world' });
    await waitForMap(world.page);
    expect((await settledView(world.page)).zoom).toBeCloseTo(2, 6);
    await world.context.close();

    // on a phone zoom 2 shows a third of the world: the view centres on the most markers that
    // fit (Reykjavík with the Lisbon + Porto cluster), not on the middle of the tour
    const phone = await started.open({ width: 375, query: 'markers=world' });
    await waitForMap(phone.page);
    expect((await settledView(phone.page)).zoom).toBeCloseTo(2, 6);
    const box = await mapBox(phone.page);
    let shown = 0;
    for (const el of await phone.page.locator('.map-pin, .map-cluster').all()) {
      const b = await el.boundingBox();
      if (!b || b.x < box.x || b.y < box.y) continue;
      if (b.x + b.width > box.x + box.width || b.y + b.height > box.y + box.height) continue;
      shown += Number((await el.getAttribute('data-count')) ?? 1);
    }
    expect(shown).toBeGreaterThanOrEqual(3);
    await phone.page.locator('.keyless-map').scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'map-world-375');
    await phone.context.close();
  });

  it('selecting a pin opens its info window at zoom 6; another pin is refused; closing restores the view', async () => {
    const { context, page } = await started.open({ width: 1440 });
    await waitForMap(page);
    await settledView(page);
    await openCluster(page);
    const before = await settledView(page);
    expect(before.interactive).toBe(true);

    await page.locator('.map-pin[data-marker-id="lisbon"]').click();
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getByRole('heading').textContent()).toBe('Lisbon');
    const open = await settledView(page);
    expect(open.zoom).toBeCloseTo(6, 6);
    expect(open.lat).toBeCloseTo(LISBON.lat, 4);
    expect(open.lng).toBeCloseTo(LISBON.lng, 4);
    expect(open.interactive).toBe(false);
    expect(await page.locator('.map-pin[data-marker-id="lisbon"]').getAttribute('class')).toMatch(
      /is-selected/,
    );

    // scroll-zoom is off while the info window is open: the wheel reaches the map, which
    // leaves it alone (MapLibre's scroll zoom takes every wheel it handles, synchronously)
    const wheels = await recordWheels(page);
    const box = await mapBox(page);
    await page.mouse.move(box.x + box.width - 60, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await expect.poll(wheels).toEqual([false]);
    expect(await page.locator('.keyless-map').getAttribute('data-camera')).toBe('idle');
    expect((await readView(page)).zoom).toBeCloseTo(6, 6);

    // Porto is on screen, but a second pin can't be selected while one is: its click handler
    // has run (it focuses the pin first) and no selection followed
    await page.locator('.map-pin[data-marker-id="porto"]').click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-marker-id')))
      .toBe('porto');
    const selections = await page.evaluate(() =>
      window.__mapEvents!.filter((e) => e.startsWith('select:') || e === 'close'),
    );
    expect(selections).toEqual(['select:lisbon']);
    expect(await dialog(page).getByRole('heading').textContent()).toBe('Lisbon');
    const still = await settledView(page);
    expect(still.lat).toBeCloseTo(LISBON.lat, 4);
    expect(still.zoom).toBeCloseTo(6, 6);
    expect(await page.evaluate(() => window.__map!.select('reykjavik'))).toBe(false);

    // the close button restores the centre and zoom from before
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    const after = await settledView(page);
    expect(after.zoom).toBeCloseTo(before.zoom, 6);
    expect(after.lat).toBeCloseTo(before.lat, 6);
    expect(after.lng).toBeCloseTo(before.lng, 6);
    expect(after.interactive).toBe(true);

    // Escape closes too, and focus returns to the pin that opened it
    await page.locator('.map-pin[data-marker-id="porto"]').click();
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getByRole('heading').textContent()).toBe('Porto');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-marker-id'))).toBe(
      'porto',
    );
    const again = await settledView(page);
    expect(again.zoom).toBeCloseTo(before.zoom, 6);

    // scroll-zoom works again
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await expect.poll(wheels).toEqual([false, true]);
    await expect.poll(async () => (await readView(page)).zoom).toBeGreaterThan(before.zoom);
    await context.close();
  });

  it('the basemap names countries at zoom 2 and, with a pin opened at zoom 6, the cities around it', async () => {
    const { context, page } = await started.open({ width: 1440, query: 'markers=none' });
    await waitForMap(page);
    await settledView(page);
    // zoom 2: country names only (no city band reached yet)
    await expect.poll(() => page.locator('.map-label--country').count()).toBeGreaterThan(5);
    expect(await page.locator('.map-label--country[data-label="Brazil"]').count()).toBe(1);
    expect(await page.locator('.map-label--city').count()).toBe(0);
    await screenshot(page, 'map-labels-zoom2-1440');
    await context.close();

    const opened = await started.open({ width: 1440 });
    await waitForMap(opened.page);
    await settledView(opened.page);
    expect(await opened.page.evaluate(() => window.__map!.select('lisbon'))).toBe(true);
    await expect.poll(() => dialog(opened.page).count()).toBe(1);
    const view = await settledView(opened.page);
    expect(view.zoom).toBeCloseTo(6, 6);
    // the zoom-6 band (cities of 50k+) is fetched lazily, then Lisbon and its neighbours show
    const city = (name: string) => opened.page.locator(`.map-label--city[data-label="${name}"]`);
    await expect.poll(() => city('Lisbon').count()).toBe(1);
    await expect.poll(() => city('Porto').count()).toBe(1);
    expect(await opened.page.locator('.map-label--city').count()).toBeGreaterThan(5);
    // labels never take a click: the pin under Lisbon's name is still on top
    expect(await city('Lisbon').evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
    await screenshot(opened.page, 'map-labels-pin-zoom6-1440');
    await opened.context.close();
  });

  it('pins are keyboard reachable: Enter on a focused pin opens its info window', async () => {
    const { context, page } = await started.open({ width: 1440 });
    await waitForMap(page);
    await settledView(page);
    await page.locator('.map-pin[data-marker-id="kyoto"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getByRole('heading').textContent()).toBe('Kyoto');
    // focus moved into the window; Tab reaches its controls
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    await context.close();
  });

  it('shows the three info window variants', async () => {
    for (const width of WIDTHS) {
      const { context, page } = await started.open({ width });
      await waitForMap(page);
      await settledView(page);

      // own destination: name, dates, carousel, the user's picture and name, journal slot
      expect(await page.evaluate(() => window.__map!.select('lisbon'))).toBe(true);
      const own = dialog(page);
      await own.waitFor();
      expect(await own.getByRole('heading').textContent()).toBe('Lisbon');
      expect(await own.getByText('Ada Traveller').count()).toBe(1);
      expect(await own.getByRole('img', { name: "Ada Traveller's profile picture" }).count()).toBe(
        1,
      );
      expect(await own.getByRole('group', { name: 'Photos of Lisbon' }).count()).toBe(1);
      expect(await own.getByTestId('journal-slot').textContent()).toContain('Journal');
      expect(await own.getByTestId('journal-slot').textContent()).not.toContain('read-only');
      await settledView(page);
      await page.locator('.keyless-map').scrollIntoViewIfNeeded();
      await screenshot(page, `map-info-own-${width}`);
      await own.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialog(page).count()).toBe(0);
      await settledView(page);

      // friend destination: friend's picture and name, read-only journal, plain "×"
      expect(await page.evaluate(() => window.__map!.select('kyoto'))).toBe(true);
      const friend = dialog(page);
      await friend.waitFor();
      expect(await friend.getByRole('heading').textContent()).toBe('Kyoto');
      expect(await friend.getByText('Mika Tanaka').count()).toBe(1);
      expect(await friend.getByRole('img', { name: "Mika Tanaka's profile picture" }).count()).toBe(
        1,
      );
      expect(await friend.getByTestId('journal-slot').textContent()).toContain('read-only');
      const plainClose = friend.getByRole('button', { name: 'Close' });
      expect((await plainClose.textContent())?.trim()).toBe('×');
      await settledView(page);
      await screenshot(page, `map-info-friend-${width}`);
      await plainClose.click();
      await expect.poll(() => dialog(page).count()).toBe(0);
      await settledView(page);

      // bucket list place: titled by `place`, itinerary slot, no carousel
      expect(await page.evaluate(() => window.__map!.select('reykjavik'))).toBe(true);
      const bucket = dialog(page);
      await bucket.waitFor();
      expect(await bucket.getByRole('heading').textContent()).toBe('Reykjavík, Iceland');
      expect(await bucket.getByTestId('itinerary-slot').count()).toBe(1);
      expect(await bucket.getByRole('group', { name: /Photos of/ }).count()).toBe(0);
      await settledView(page);
      await screenshot(page, `map-info-bucket-${width}`);
      await context.close();
    }
  });

  it('the photo carousel wraps both ways, with arrows on desktop', async () => {
    const { context, page } = await started.open({ width: 1440 });
    await waitForMap(page);
    await page.evaluate(() => window.__map!.select('lisbon'));
    const photo = dialog(page).locator('.carousel-photo');
    await photo.waitFor();
    const alt = () => photo.getAttribute('alt');
    expect(await alt()).toBe('Lisbon, photo 1 of 3');
    const size = await dialog(page).locator('.carousel-frame').boundingBox();
    expect(size && [Math.round(size.width), Math.round(size.height)]).toEqual([350, 400]);
    expect(await photo.evaluate((img) => getComputedStyle(img).objectFit)).toBe('cover');
    expect(await photo.getAttribute('loading')).toBe('lazy');

    const previous = dialog(page).getByRole('button', { name: 'Previous photo' });
    const next = dialog(page).getByRole('button', { name: 'Next photo' });
    await previous.click();
    await expect.poll(alt).toBe('Lisbon, photo 3 of 3');
    await next.click();
    await expect.poll(alt).toBe('Lisbon, photo 1 of 3');
    await next.click();
    await next.click();
    await expect.poll(alt).toBe('Lisbon, photo 3 of 3');
    await next.click();
    await expect.poll(alt).toBe('Lisbon, photo 1 of 3');
    // every photo really loads
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(700);
    await dialog(page).getByRole('button', { name: 'Close' }).click();

    // no photos: a placeholder of the same size, nothing to move
    await settledView(page);
    await openCluster(page);
    await page.locator('.map-pin[data-marker-id="porto"]').click();
    await dialog(page).getByRole('heading', { name: 'Porto' }).waitFor();
    expect(await dialog(page).getByText('No photos yet').count()).toBe(1);
    expect(await dialog(page).getByRole('button', { name: /photo/ }).count()).toBe(0);
    const empty = await dialog(page).locator('.carousel-frame').boundingBox();
    expect(empty && [Math.round(empty.width), Math.round(empty.height)]).toEqual([350, 400]);
    await context.close();
  });

  it('at 375 px the carousel has buttons below the photo, 250 px high', async () => {
    const { context, page } = await started.open({ width: 375, height: 812 });
    await waitForMap(page);
    await page.locator('.keyless-map').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.__map!.select('lisbon'));
    const frame = dialog(page).locator('.carousel-frame');
    await frame.waitFor();
    expect(await dialog(page).locator('.carousel-arrow').count()).toBe(0);
    const frameBox = (await frame.boundingBox())!;
    expect(Math.round(frameBox.height)).toBe(250); // layout may land on a sub-pixel
    const prev = dialog(page).getByRole('button', { name: 'Previous', exact: true });
    const next = dialog(page).getByRole('button', { name: 'Next', exact: true });
    const prevBox = (await prev.boundingBox())!;
    const nextBox = (await next.boundingBox())!;
    expect(prevBox.y).toBeGreaterThanOrEqual(frameBox.y + frameBox.height - 0.5);
    expect(nextBox.y).toBeGreaterThanOrEqual(frameBox.y + frameBox.height - 0.5);
    const alt = () => dialog(page).locator('.carousel-photo').getAttribute('alt');
    await prev.click();
    await expect.poll(alt).toBe('Lisbon, photo 3 of 3');
    await next.click();
    await expect.poll(alt).toBe('Lisbon, photo 1 of 3');
    await settledView(page);
    await screenshot(page, 'map-carousel-mobile-375');
    await context.close();
  });

  it('choosing a destination in a list zooms the map to it', async () => {
    const { context, page } = await started.open({ width: 1440 });
    await waitForMap(page);
    await settledView(page);
    await page.getByRole('button', { name: 'Kyoto', exact: true }).click();
    await expect.poll(async () => (await readView(page)).zoom).toBeCloseTo(6, 3);
    const view = await settledView(page);
    expect(view.lat).toBeCloseTo(KYOTO.lat, 4);
    expect(view.lng).toBeCloseTo(KYOTO.lng, 4);
    expect(await dialog(page).count()).toBe(0);
    await context.close();
  });
});
