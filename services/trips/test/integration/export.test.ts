import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  friendshipId,
  FriendshipCreated,
  makeEvent,
  Topics,
  TripExportFormats,
  TripExportMediaTypes,
  type Trip,
} from '@wayfarer/contracts';
import { createProducer } from '@wayfarer/service-kit';
import { testKafka } from '@wayfarer/test-kit';
import { readGeoJson, readGpx, readIcs, readKml, schemaErrors } from '../export-formats';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

// GET /api/trips/{id}/export.<gpx|kml|geojson|ics> through the real service (MongoDB,
// MinIO, Kafka), each file read back by an independent parser and the XML ones validated
// against their published schemas

let h: Harness;
let producer: Producer;
const NOW = new Date('2026-11-26T12:34:56.000Z');
beforeAll(async () => {
  h = await startTrips({ now: () => NOW });
  producer = createProducer(testKafka());
  await producer.connect();
});
afterAll(async () => {
  await producer?.disconnect();
  await h?.close();
});

/** Markup, iCalendar's separators, a line break, accents, CJK and an emoji. */
const STORY =
  'Dinner at <Le Chat> & "Bar"; wine, cheese\\bread\nthen a walk by the Seine: 東京より好き 🥐';
const owner = newUserId();
let trip: Trip;

beforeAll(async () => {
  const res = await postTrip(
    h.app,
    owner,
    tripFields({ name: 'Été à Paris & Zürich', startDate: '2026-06-30', endDate: '2026-07-05' }, [
      {
        name: 'Paris — Île de la Cité',
        latitude: '48.8554',
        longitude: '2.3459',
        startDate: '2026-06-30',
        endDate: '2026-07-02',
        story: STORY,
      },
      {
        name: 'Zürich',
        latitude: '47.3769',
        longitude: '8.5417',
        startDate: '2026-07-03',
        endDate: '2026-07-05',
      },
    ]),
  );
  expect(res.statusCode, res.body).toBe(201);
  trip = res.json<Trip>();
  expect(stored().replace(/\r\n/g, '\n')).toBe(STORY);
});

const download = (user: string | null, path: string) =>
  h.app.inject({ url: `/api/trips/${trip._id}/${path}`, headers: user ? as(user) : {} });

const paris = { name: 'Paris — Île de la Cité', lon: 2.3459, lat: 48.8554 };
const zurich = { name: 'Zürich', lon: 8.5417, lat: 47.3769 };
/** The line through the destinations, in the trip's order (GPX's route, KML's last placemark). */
const ROUTE = {
  type: 'LineString',
  coordinates: [
    [paris.lon, paris.lat],
    [zurich.lon, zurich.lat],
  ],
};
/** The story as the trip holds it: a form sends its line breaks as CRLF (HTML's rule). */
const stored = () => trip.destinations[0]!.story;

describe('GET /api/trips/{id}/export.<format> (the owner)', () => {
  it('answers each format as a download: media type, file name (ASCII and UTF-8), never cached', async () => {
    for (const format of TripExportFormats) {
      const res = await download(owner, `export.${format}`);
      expect(res.statusCode, res.body).toBe(200);
      const type = TripExportMediaTypes[format];
      expect(res.headers['content-type']).toBe(
        type.includes('charset') ? type : `${type}; charset=utf-8`,
      );
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="ete-a-paris-zurich.${format}"; filename*=UTF-8''${encodeURIComponent(`Été à Paris & Zürich.${format}`)}`,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('GPX: valid against GPX 1.1; togeojson reads back each waypoint and the route', async () => {
    const res = await download(owner, 'export.gpx');
    expect(await schemaErrors(res.body, 'gpx')).toEqual([]);
    const features = readGpx(res.body).features;
    expect(features.filter((f) => f.geometry?.type === 'Point')).toEqual([
      {
        type: 'Feature',
        properties: {
          name: paris.name,
          time: '2026-06-30T00:00:00Z',
          desc: stored(),
          wayfarer_endDate: '2026-07-02',
        },
        geometry: { type: 'Point', coordinates: [paris.lon, paris.lat] },
      },
      {
        type: 'Feature',
        properties: {
          name: zurich.name,
          time: '2026-07-03T00:00:00Z',
          wayfarer_endDate: '2026-07-05',
        },
        geometry: { type: 'Point', coordinates: [zurich.lon, zurich.lat] },
      },
    ]);
    const route = features.find((f) => f.geometry?.type === 'LineString');
    expect(route?.properties?.name).toBe('Été à Paris & Zürich');
    expect(route?.geometry).toEqual(ROUTE);
  });

  it('KML: valid against OGC KML 2.2; togeojson reads back each placemark and the route', async () => {
    const res = await download(owner, 'export.kml');
    expect(await schemaErrors(res.body, 'kml')).toEqual([]);
    const features = readKml(res.body).features;
    expect(features.map((f) => [f.properties, f.geometry])).toEqual([
      [
        {
          name: paris.name,
          description: stored(),
          timespan: { begin: '2026-06-30', end: '2026-07-02' },
        },
        { type: 'Point', coordinates: [paris.lon, paris.lat] },
      ],
      [
        { name: zurich.name, timespan: { begin: '2026-07-03', end: '2026-07-05' } },
        { type: 'Point', coordinates: [zurich.lon, zurich.lat] },
      ],
      [{ name: 'Route' }, ROUTE],
    ]);
  });

  it('GeoJSON: passes check-geojson; [lon, lat], names, dates, stories; the trip beside', async () => {
    const res = await download(owner, 'export.geojson');
    const doc = readGeoJson(res.body) as unknown as {
      trip: unknown;
      features: { id: string; geometry: unknown; properties: unknown }[];
    };
    expect(doc.trip).toEqual({
      id: trip._id,
      name: 'Été à Paris & Zürich',
      startDate: '2026-06-30',
      endDate: '2026-07-05',
    });
    expect(doc.features).toEqual([
      {
        type: 'Feature',
        id: trip.destinations[0]!._id,
        geometry: { type: 'Point', coordinates: [paris.lon, paris.lat] },
        properties: {
          name: paris.name,
          startDate: '2026-06-30',
          endDate: '2026-07-02',
          story: stored(),
        },
      },
      {
        type: 'Feature',
        id: trip.destinations[1]!._id,
        geometry: { type: 'Point', coordinates: [zurich.lon, zurich.lat] },
        properties: {
          name: zurich.name,
          startDate: '2026-07-03',
          endDate: '2026-07-05',
          story: '',
        },
      },
    ]);
  });

  it('ICS: ical.js reads back one all-day event per destination (end exclusive), stable UIDs', async () => {
    const res = await download(owner, 'export.ics');
    expect(res.body).not.toMatch(/[^\r]\n/);
    for (const line of res.body.split('\r\n'))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const calendar = readIcs(res.body);
    expect(calendar).toMatchObject({ version: '2.0', name: 'Été à Paris & Zürich' });
    expect(calendar.events).toEqual([
      {
        uid: `${trip.destinations[0]!._id}@wayfarer`,
        summary: paris.name,
        // TEXT has one kind of line break: the stored CRLF comes back as a newline
        description: STORY,
        start: '2026-06-30',
        end: '2026-07-03',
        allDay: true,
        geo: [paris.lat, paris.lon],
        stamp: '2026-11-26T12:34:56Z',
      },
      {
        uid: `${trip.destinations[1]!._id}@wayfarer`,
        summary: zurich.name,
        description: null,
        start: '2026-07-03',
        end: '2026-07-06',
        allDay: true,
        geo: [zurich.lat, zurich.lon],
        stamp: '2026-11-26T12:34:56Z',
      },
    ]);
    // the same trip exported again: the same events (a calendar updates, never duplicates)
    expect((await download(owner, 'export.ics')).body).toBe(res.body);
  });

  it('a trip without a name or destinations exports too ("trip.<format>", "Untitled trip")', async () => {
    const res = await postTrip(
      h.app,
      owner,
      tripFields({ startDate: '2026-01-01', endDate: '2026-01-01' }, []),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<Trip>()._id;
    for (const format of TripExportFormats) {
      const file = await h.app.inject({
        url: `/api/trips/${id}/export.${format}`,
        headers: as(owner),
      });
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="trip.${format}"; filename*=UTF-8''trip.${format}`,
      );
    }
    const gpx = await h.app.inject({ url: `/api/trips/${id}/export.gpx`, headers: as(owner) });
    expect(await schemaErrors(gpx.body, 'gpx')).toEqual([]);
    const ics = await h.app.inject({ url: `/api/trips/${id}/export.ics`, headers: as(owner) });
    expect(readIcs(ics.body).events).toEqual([
      expect.objectContaining({ summary: 'Untitled trip', start: '2026-01-01', end: '2026-01-02' }),
    ]);
  });
});

describe('who may export, and what', () => {
  it('a friend who may read the trip, a stranger: 404 as for an unknown trip; nobody: 401', async () => {
    const friend = newUserId();
    const event = makeEvent(FriendshipCreated, friendshipId(owner, friend), {
      userIds: [owner, friend],
    });
    await producer.send({
      topic: Topics.socialFriendship,
      messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
    });
    await expect
      .poll(() => h.friendships.areFriends(owner, friend), { timeout: 45_000 })
      .toBe(true);
    // the friend does see the trip's photos (it is `friends`): the export is the owner's alone
    expect(trip.visibility).toBe('friends');

    const unknown = await h.app.inject({
      url: `/api/trips/${'0'.repeat(24)}/export.gpx`,
      headers: as(owner),
    });
    expect(unknown.statusCode).toBe(404);
    for (const user of [friend, newUserId()]) {
      for (const format of TripExportFormats) {
        const res = await download(user, `export.${format}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(unknown.json());
        expect(res.headers['content-disposition']).toBeUndefined();
      }
    }
    const anonymous = await download(null, 'export.gpx');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('Paris');
  });

  it('another extension: 400 naming the formats, for the owner and anyone else alike', async () => {
    for (const path of ['export.pdf', 'export.GPX', 'export.json', 'export.gpx.zip']) {
      for (const user of [owner, newUserId()]) {
        const res = await download(user, path);
        expect(res.statusCode, path).toBe(400);
        const body = res.json<{ error: string; message: string }>();
        expect(body.error).toBe('bad_request');
        for (const format of TripExportFormats) expect(body.message).toContain(`.${format}`);
      }
    }
  });

  it('a malformed trip id is 404, the trip is unchanged by any export', async () => {
    const bad = await h.app.inject({ url: '/api/trips/not-an-id/export.gpx', headers: as(owner) });
    expect(bad.statusCode).toBe(404);
    const after = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(after.json<Trip>()).toEqual(trip);
    expect(after.headers.etag).toBe('"1"');
  });
});
