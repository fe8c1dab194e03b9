import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp } from '../support/api';
import { animationsDone, screenshot, useBrowser } from '../support/browser';
import { openAs } from '../support/pages';

/**
 * The per-trip files from the trip screen in headless Chromium against the real
 * stack: the Export group's links, a download by keyboard through the gateway, the same files
 * over the API for a stranger (404) and nobody (401). The files' contents are checked in depth
 * by trips' own tests (parsers, schemas).
 */

const PLACES = [
  ['Lisbon, Portugal', '38.7223', '-9.1393', '2025-05-02', '2025-05-05'],
  ['Porto, Portugal', '41.1579', '-8.6291', '2025-05-06', '2025-05-09'],
] as const;
const STORY = 'Pastéis de nata & "vinho verde"; trams, hills.\nSecond day: Alfama.';

const exportGroup = (page: Page) => page.getByRole('region', { name: 'Export' });

describe('exporting a trip from its screen', () => {
  const browser = useBrowser();

  it('the owner sees four download links and downloads the GPX by keyboard; others get 404/401', async () => {
    const owner = await signUp('Exporting Traveller');
    const trip = await createTrip(owner, 'Ôporto & Lisboa', PLACES, STORY, 1);
    const { context, page } = await openAs(browser(), owner);
    await page.goto(`/trip/${trip._id}`);
    await page.getByRole('heading', { name: 'Ôporto & Lisboa', level: 1 }).waitFor();

    const group = exportGroup(page);
    const links = group.getByRole('link');
    expect(await links.count()).toBe(4);
    const found = await links.evaluateAll((els) =>
      els.map((a) => ({
        text: a.textContent,
        name: a.getAttribute('aria-label'),
        href: a.getAttribute('href'),
        download: a.hasAttribute('download'),
      })),
    );
    expect(found.map((l) => l.text)).toEqual(['GPX', 'KML', 'GeoJSON', 'Calendar (.ics)']);
    for (const [i, ext] of ['gpx', 'kml', 'geojson', 'ics'].entries()) {
      expect(found[i]?.href).toBe(`/api/trips/${trip._id}/export.${ext}`);
      expect(found[i]?.download).toBe(true);
      expect(found[i]?.name).toMatch(/^Download /);
    }

    // keyboard: the GPX link takes focus and Enter downloads it, named by the server
    const gpxLink = group.getByRole('link', { name: /^Download GPX/ });
    await gpxLink.focus();
    expect(await gpxLink.evaluate((a) => a === document.activeElement)).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.keyboard.press('Enter'),
    ]);
    // the browser takes the UTF-8 name (filename*), the ASCII one being for older clients
    expect(download.suggestedFilename()).toBe('Ôporto & Lisboa.gpx');
    const gpx = await readFile((await download.path())!, 'utf8');
    expect(gpx).toContain('<gpx version="1.1"');
    expect(gpx).toContain('<name>Lisbon, Portugal</name>');
    expect(gpx).toContain('<desc>Pastéis de nata &amp; &quot;vinho verde&quot;; trams, hills.');

    await group.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await screenshot(page, 'trip-export-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await group.scrollIntoViewIfNeeded();
    await animationsDone(page);
    // at 375 px the four links wrap inside the page: nothing runs off to the side
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await screenshot(page, 'trip-export-375');
    await context.close();

    // through the gateway: the ICS as a download, never cached
    const ics = await api(`/api/trips/${trip._id}/export.ics`, owner);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(ics.headers.get('content-disposition')).toContain('filename="oporto-lisboa.ics"');
    expect(ics.headers.get('cache-control')).toBe('no-store');
    expect(await ics.text()).toContain('SUMMARY:Porto\\, Portugal\r\n');

    const stranger = await signUp('Curious Stranger');
    expect((await api(`/api/trips/${trip._id}/export.gpx`, stranger)).status).toBe(404);
    expect((await api(`/api/trips/${trip._id}/export.gpx`)).status).toBe(401);
    expect((await api(`/api/trips/${trip._id}/export.pdf`, owner)).status).toBe(400);

    // a stranger opening the trip screen sees no trip, so no Export group
    const other = await openAs(browser(), stranger);
    await other.page.goto(`/trip/${trip._id}`);
    await other.page.getByRole('heading', { name: 'Trip not found.', level: 1 }).waitFor();
    expect(await exportGroup(other.page).count()).toBe(0);
    await other.context.close();
  });
});
