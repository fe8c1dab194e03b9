import { describe, expect, it } from 'vitest';
import { ExportArchive, Topics, type ExportedTrip } from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { zipBuffer } from '@wayfarer/test-kit/zip';
import { png } from '../fixtures';
import { as, newUserId } from './harness';
import {
  useImportHarness,
  fixture,
  fullTrip,
  h,
  imported,
  myTrips,
  photo1,
  photo2,
  shape,
} from './import-harness';

useImportHarness();

describe('POST /api/import: each format', () => {
  it('a GPX track over 3 days: one trip, a destination per day, in GET /api/mytrips', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('tmb-3-days.gpx'), 'tmb-3-days.gpx');
    expect(result).toMatchObject({
      format: 'gpx',
      message: 'Imported 1 trip.',
      skipped: { photos: 0, destinations: 0, trips: 0 },
    });
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Tour du Mont Blanc, days 1-3',
      startDate: '2024-07-08',
      endDate: '2024-07-10',
      destinations: [
        ['Day 1', '2024-07-08', '2024-07-08', 45.8906, 6.7985, 0],
        ['Notre-Dame de la Gorge', '2024-07-09', '2024-07-09', 45.7901, 6.7138, 0],
        ['Day 3', '2024-07-10', '2024-07-10', 45.6958, 6.7283, 0],
      ],
    });
    // as GET /api/trips/{id} answers it, and listed
    expect(await fullTrip(user, result.trips[0]!._id)).toEqual(result.trips[0]);
    expect((await myTrips(user)).map((t) => t._id)).toEqual([result.trips[0]!._id]);
  });

  it('a GPX of waypoints: a destination each', async () => {
    const user = newUserId();
    const today = new Date().toISOString().slice(0, 10);
    const { trips } = await imported(user, fixture('lisbon-waypoints.gpx'), 'lisbon.gpx');
    expect(trips[0]!.name).toBe('Lisbon favourites');
    expect(trips[0]!.destinations.map((d) => [d.name, d.startDate])).toEqual([
      ['Castelo de São Jorge', '2025-03-14'],
      ['Torre de Belém', today],
      ['Pastéis de Belém', today],
      ['Miradouro da Graça', today],
    ]);
    expect(trips[0]!.destinations[1]!.story).toBe('Go early: the queue is short before 10.');
  });

  it('a KML: Placemarks with Points, their dates and descriptions', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('japan-autumn.kml'), 'japan.kml');
    expect(result.skipped.destinations).toBe(1); // the LineString
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Japan in autumn',
      startDate: '2023-11-02',
      endDate: '2023-11-10',
      destinations: [
        ['Tokyo – Shinjuku', '2023-11-02', '2023-11-05', 35.689592, 139.700464, 0],
        ['Kyoto – Arashiyama', '2023-11-06', '2023-11-09', 35.009392, 135.672009, 0],
        ['Nara', '2023-11-10', '2023-11-10', 34.685087, 135.843056, 0],
      ],
    });
    expect(result.trips[0]!.destinations[0]!.story).toBe(
      'Arrived at Haneda.\nRamen at Fuunji, then the Omoide Yokocho alleys.',
    );
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a GeoJSON FeatureCollection of Points', async () => {
    const user = newUserId();
    const result = await imported(user, fixture('iceland-ring-road.geojson'), 'x.json');
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Iceland ring road',
      startDate: '2022-06-18',
      endDate: '2022-06-21',
      destinations: [
        ['Reykjavík', '2022-06-18', '2022-06-19', 64.146582, -21.9424, 0],
        ['Vík í Mýrdal', '2022-06-20', '2022-06-20', 63.4186, -19.061, 0],
        ['Jökulsárlón', '2022-06-21', '2022-06-21', 64.0784, -16.1792, 0],
      ],
    });
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a Polarsteps export ZIP: steps as destinations, with their 2 photos', async () => {
    const user = newUserId();
    const dir = 'trip/Scotland by train_8123456';
    const zip = await zipBuffer([
      { name: `${dir}/trip.json`, data: fixture('polarsteps-trip.json') },
      { name: `${dir}/edinburgh_90000001/photos/3f2a9c.jpg`, data: photo1, compress: false },
      { name: `${dir}/portree_90000002/photos/8b1d07.jpg`, data: photo2, compress: false },
      { name: 'user/user.json', data: Buffer.from('{"first_name":"Ada"}') },
    ]);
    const result = await imported(user, zip, 'user_data.zip');
    expect(result).toMatchObject({ format: 'polarsteps', skipped: { destinations: 1 } });
    expect(shape(result.trips[0]!)).toEqual({
      name: 'Scotland by train',
      startDate: '2024-06-01',
      endDate: '2024-06-06',
      destinations: [
        ['Edinburgh', '2024-06-01', '2024-06-03', 55.9533, -3.1883, 1],
        ['Glenfinnan', '2024-06-03', '2024-06-03', 56.8764, -5.4317, 0],
        ['Portree, Isle of Skye', '2024-06-04', '2024-06-06', 57.4129, -6.1961, 1],
      ],
    });
    // the photos are stored and served like any trip's
    const photoUrl = result.trips[0]!.destinations[0]!.photos[0]!;
    const served = await h.app.inject({ url: photoUrl, headers: as(user) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\//);
    expect(await myTrips(user)).toHaveLength(1);
  });

  it('a Wayfarer export ZIP: the same trips, visibility and photo counts', async () => {
    const user = newUserId();
    const root = ExportArchive.root;
    const trips: ExportedTrip[] = [
      {
        id: 'a1',
        name: 'Rome in spring',
        startDate: '2025-04-01',
        endDate: '2025-04-04',
        visibility: 'private',
        destinations: [
          {
            id: 'd1',
            name: 'Colosseum',
            latitude: 41.8902,
            longitude: 12.4922,
            startDate: '2025-04-01',
            endDate: '2025-04-02',
            story: 'Underground tour at 9.',
            photos: ['photos/a1/p1.jpg', 'photos/a1/p2.png'],
          },
          {
            id: 'd2',
            name: 'Trastevere',
            latitude: 41.8897,
            longitude: 12.4695,
            startDate: '2025-04-03',
            endDate: '2025-04-04',
            story: '',
            photos: [],
          },
        ],
      },
      {
        id: 'b2',
        name: 'Oslo',
        startDate: '2025-08-10',
        endDate: '2025-08-10',
        visibility: 'friends',
        destinations: [
          {
            id: 'd3',
            name: 'Opera house',
            latitude: 59.9075,
            longitude: 10.7531,
            startDate: '2025-08-10',
            endDate: '2025-08-10',
            story: 'Walked on the roof.',
            photos: ['photos/b2/p3.jpg'],
          },
        ],
      },
    ];
    const zip = await zipBuffer([
      {
        name: `${root}/manifest.json`,
        data: Buffer.from(
          JSON.stringify({
            format: 'wayfarer-export',
            version: 1,
            exportedAt: '2026-01-01T00:00:00Z',
          }),
        ),
      },
      { name: `${root}/trips.json`, data: Buffer.from(JSON.stringify(trips)) },
      { name: `${root}/photos/a1/p1.jpg`, data: photo1, compress: false },
      { name: `${root}/photos/a1/p2.png`, data: await png(), compress: false },
      { name: `${root}/photos/b2/p3.jpg`, data: photo2, compress: false },
    ]);
    const result = await imported(user, zip, 'wayfarer-export.zip');
    expect(result.format).toBe('wayfarer');
    expect(
      result.trips.map((t) => [t.name, t.visibility, t.destinations.map((d) => d.photos.length)]),
    ).toEqual([
      ['Rome in spring', 'private', [2, 0]],
      ['Oslo', 'friends', [1]],
    ]);
    expect(result.trips[0]!.destinations[0]).toMatchObject({
      name: 'Colosseum',
      story: 'Underground tour at 9.',
      startDate: '2025-04-01',
      endDate: '2025-04-02',
    });
    expect(await myTrips(user)).toHaveLength(2);
    // created through the create use case: each trip's trip.created on Kafka, as any create's
    const ids = result.trips.map((t) => t._id);
    const events = await waitForEvents<{
      type: string;
      aggregateId: string;
      payload: { ownerId: string; visibility?: string };
    }>(Topics.tripsTrip, (e) => e.type === 'trip.created' && ids.includes(e.aggregateId), {
      count: 2,
    });
    expect(
      events.map((e) => [e.aggregateId, e.payload.ownerId, e.payload.visibility]).sort(),
    ).toEqual(
      [
        [ids[0], user, 'private'],
        [ids[1], user, 'friends'],
      ].sort(),
    );
  });
});
