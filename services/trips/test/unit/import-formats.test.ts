import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import { documentDraft } from '../../src/domain/import/detect';
import type { ImportDraft } from '../../src/domain/import/draft';
import { planImport } from '../../src/domain/import/plan';
import { dayIn, polarstepsLayout, polarstepsTrip } from '../../src/domain/import/polarsteps';
import { wayfarerTrips } from '../../src/domain/import/wayfarer';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/import', name));
const TODAY = '2026-01-15';

describe('GPX (togeojson)', () => {
  it('groups a 3-day track by UTC day: one destination per day at its first point, a waypoint for its day', () => {
    const draft = documentDraft('xml', fixture('tmb-3-days.gpx'), 'tmb-3-days.gpx');
    expect(draft.format).toBe('gpx');
    const [trip] = draft.trips;
    expect(trip!.name).toBe('Tour du Mont Blanc, days 1-3');
    expect(trip!.places.map((p) => [p.name, p.startDate, p.latitude, p.longitude])).toEqual([
      ['Day 1', '2024-07-08', 45.8906, 6.7985],
      // the day has a waypoint: the waypoint is that day's destination
      ['Notre-Dame de la Gorge', '2024-07-09', 45.7901, 6.7138],
      ['Day 3', '2024-07-10', 45.6958, 6.7283],
    ]);
    expect(trip!.places[1]!.story).toMatch(/^Coffee at the chapel/);
    const plan = planImport(draft, TODAY);
    expect(plan.trips[0]!.input).toMatchObject({
      startDate: '2024-07-08',
      endDate: '2024-07-10',
      visibility: 'friends',
    });
  });

  it('reads our own export back place by place (two on one day), its route adding nothing', () => {
    const draft = documentDraft('xml', fixture('wayfarer-export.gpx'), 'x.gpx');
    const { input } = planImport(draft, TODAY).trips[0]!;
    expect(input.name).toBe('Portugal by train');
    expect(
      input.destinations.map((d) => [d.name, d.startDate, d.endDate, d.latitude, d.story]),
    ).toEqual([
      ['Lisbon, Portugal', '2025-05-02', '2025-05-05', 38.7223, 'Trams and hills.'],
      ['Porto, Portugal', '2025-05-06', '2025-05-09', 41.1579, ''],
      ['Ribeira, Porto', '2025-05-06', '2025-05-07', 41.1496, ''],
    ]);
    // the end dates come from our <extensions>: the trip ends when its last place does
    expect(input.endDate).toBe('2025-05-09');
  });

  it('takes an end date only from our own extension, and only a real one not before the start', () => {
    const wpt = (end: string, ns = 'urn:wayfarer:gpx:1') =>
      `<wpt lat="1" lon="2"><time>2025-03-10T00:00:00Z</time><name>P</name>` +
      `<extensions><e:endDate xmlns:e="${ns}">${end}</e:endDate></extensions></wpt>`;
    const ends = (...wpts: string[]) =>
      documentDraft(
        'xml',
        Buffer.from(
          `<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1">${wpts.join('')}</gpx>`,
        ),
        'x',
      ).trips[0]!.places.map((p) => p.endDate);
    expect(ends(wpt('2025-03-12'))).toEqual(['2025-03-12']);
    expect(ends(wpt('2025-03-12', 'urn:someone:else'))).toEqual(['2025-03-10']);
    expect(ends(wpt('2025-03-09'), wpt('2025-02-30'), wpt('soon'))).toEqual([
      '2025-03-10',
      '2025-03-10',
      '2025-03-10',
    ]);
  });

  it('groups a route by the times of its points; a track without times is a place only alone', () => {
    const gpx = (body: string) =>
      Buffer.from(`<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1">${body}</gpx>`);
    const route = documentDraft(
      'xml',
      gpx(
        '<rte><name>Ferry hops</name>' +
          '<rtept lat="60.39" lon="5.32"><time>2024-05-01T08:00:00Z</time></rtept>' +
          '<rtept lat="61.00" lon="5.50"><time>2024-05-01T15:00:00Z</time></rtept>' +
          '<rtept lat="62.47" lon="6.15"><time>2024-05-03T09:00:00Z</time></rtept></rte>',
      ),
      'x',
    );
    expect(route.trips[0]!.name).toBe('Ferry hops');
    expect(route.trips[0]!.places.map((p) => [p.name, p.startDate, p.latitude])).toEqual([
      ['Day 1', '2024-05-01', 60.39],
      ['Day 3', '2024-05-03', 62.47],
    ]);
    const track = documentDraft(
      'xml',
      gpx(
        '<trk><name>Morning run</name><trkseg><trkpt lat="59.91" lon="10.75"/>' +
          '<trkpt lat="59.92" lon="10.76"/></trkseg></trk>',
      ),
      'x',
    );
    expect(track.trips[0]!.places.map((p) => [p.name, p.startDate, p.latitude])).toEqual([
      ['Morning run', undefined, 59.91],
    ]);
  });

  it('makes each waypoint without a time a destination of its own (dated today)', () => {
    const draft = documentDraft('xml', fixture('lisbon-waypoints.gpx'), 'x.gpx');
    const plan = planImport(draft, TODAY);
    const { input } = plan.trips[0]!;
    expect(input.name).toBe('Lisbon favourites');
    expect(input.destinations.map((d) => [d.name, d.startDate])).toEqual([
      // the timed waypoint is its day's destination, listed first
      ['Castelo de São Jorge', '2025-03-14'],
      ['Torre de Belém', TODAY],
      ['Pastéis de Belém', TODAY],
      ['Miradouro da Graça', TODAY],
    ]);
    expect(input.destinations[2]!.story).toBe('Custard tarts, still warm.');
    expect(input.destinations[1]).toMatchObject({ latitude: 38.691585, longitude: -9.215977 });
  });
});

describe('KML (togeojson)', () => {
  it('reads Placemarks with Points: TimeSpan, TimeStamp, descriptions as plain text', () => {
    const draft = documentDraft('xml', fixture('japan-autumn.kml'), 'japan.kml');
    expect(draft).toMatchObject({ format: 'kml', skippedPlaces: 1 });
    const { input } = planImport(draft, TODAY).trips[0]!;
    expect(input).toMatchObject({
      name: 'Japan in autumn',
      startDate: '2023-11-02',
      endDate: '2023-11-10',
    });
    expect(input.destinations).toEqual([
      {
        name: 'Tokyo – Shinjuku',
        latitude: 35.689592,
        longitude: 139.700464,
        startDate: '2023-11-02',
        endDate: '2023-11-05',
        story: 'Arrived at Haneda.\nRamen at Fuunji, then the Omoide Yokocho alleys.',
      },
      {
        name: 'Kyoto – Arashiyama',
        latitude: 35.009392,
        longitude: 135.672009,
        startDate: '2023-11-06',
        endDate: '2023-11-09',
        story: 'Bamboo grove at dawn & the monkey park.',
      },
      {
        name: 'Nara',
        latitude: 34.685087,
        longitude: 135.843056,
        startDate: '2023-11-10',
        endDate: '2023-11-10',
        story: '',
      },
    ]);
  });

  it('refuses a DOCTYPE or ENTITY before parsing (billion laughs, XXE)', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><kml>&lol2;</kml>`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><gpx>&xxe;</gpx>`;
    for (const xml of [laughs, xxe]) {
      expect(() => documentDraft('xml', Buffer.from(xml), 'x')).toThrow(
        ImportMessages.xmlDeclarations,
      );
    }
  });

  it('refuses XML over ImportLimits.xmlMaxBytes before parsing it (a DOM takes ~60x its size)', () => {
    const big = Buffer.concat([
      Buffer.from('<gpx>'),
      Buffer.alloc(ImportLimits.xmlMaxBytes, 0x20),
      Buffer.from('</gpx>'),
    ]);
    expect(() => documentDraft('xml', big, 'x')).toThrow(ImportMessages.xmlTooLarge);
  });

  it('refuses XML that is not well-formed, or neither GPX nor KML', () => {
    expect(() => documentDraft('xml', Buffer.from('<gpx><wpt></gpx>'), 'x')).toThrow(
      ImportMessages.badXml,
    );
    expect(() => documentDraft('xml', Buffer.from('<html><body/></html>'), 'x')).toThrow(
      ImportMessages.unsupported,
    );
  });
});

describe('GeoJSON', () => {
  it('reads Point features: name/title, startDate/endDate or date/time, story/description', () => {
    const draft = documentDraft('json', fixture('iceland-ring-road.geojson'), 'x.geojson');
    expect(draft).toMatchObject({ format: 'geojson', skippedPlaces: 1 });
    const { input } = planImport(draft, TODAY).trips[0]!;
    expect(input.name).toBe('Iceland ring road');
    expect(
      input.destinations.map((d) => [d.name, d.startDate, d.endDate, d.latitude, d.story]),
    ).toEqual([
      [
        'Reykjavík',
        '2022-06-18',
        '2022-06-19',
        64.146582,
        'Hallgrímskirkja tower and a hot dog at Bæjarins Beztu.',
      ],
      [
        'Vík í Mýrdal',
        '2022-06-20',
        '2022-06-20',
        63.4186,
        'Black sand at Reynisfjara, puffins on Dyrhólaey.',
      ],
      ['Jökulsárlón', '2022-06-21', '2022-06-21', 64.0784, ''],
    ]);
  });

  it('refuses JSON that is not a FeatureCollection, or not JSON', () => {
    expect(() => documentDraft('json', Buffer.from('{"type":"Feature"}'), 'x')).toThrow(
      ImportMessages.unsupported,
    );
    expect(() => documentDraft('json', Buffer.from('{"type":'), 'x')).toThrow(
      ImportMessages.badJson,
    );
  });
});

describe('Polarsteps', () => {
  const entries = new Map([
    ['trip/Scotland by train_8123456/trip.json', { bytes: 2000 }],
    ['trip/Scotland by train_8123456/edinburgh_90000001/photos/a1b2.jpg', { bytes: 5000 }],
    ['trip/Scotland by train_8123456/portree_90000002/photos/c3d4.jpg', { bytes: 6000 }],
    ['trip/Scotland by train_8123456/portree_90000002/videos/e5f6.mp4', { bytes: 9000 }],
    ['user/user.json', { bytes: 100 }],
  ]);

  it('finds the trips and their steps photos in the layout', () => {
    const [layout] = polarstepsLayout(entries);
    expect(layout!.tripJson).toBe('trip/Scotland by train_8123456/trip.json');
    expect([...layout!.photos]).toEqual([
      [
        '90000001',
        [
          {
            entry: 'trip/Scotland by train_8123456/edinburgh_90000001/photos/a1b2.jpg',
            bytes: 5000,
          },
        ],
      ],
      [
        '90000002',
        [{ entry: 'trip/Scotland by train_8123456/portree_90000002/photos/c3d4.jpg', bytes: 6000 }],
      ],
    ]);
    expect(polarstepsLayout(new Map([['trips.json', { bytes: 1 }]]))).toEqual([]);
  });

  it('makes steps destinations in time order, dated in their time zone, with their photos', () => {
    const [layout] = polarstepsLayout(entries);
    const read = polarstepsTrip(
      JSON.parse(fixture('polarsteps-trip.json').toString()),
      layout!.photos,
    );
    expect(read!.skipped).toBe(1); // the step without a location
    const draft: ImportDraft = {
      format: 'polarsteps',
      trips: [read!.trip],
      skippedPlaces: read!.skipped,
    };
    const plan = planImport(draft, TODAY);
    const { input, photos } = plan.trips[0]!;
    expect(input).toMatchObject({
      name: 'Scotland by train',
      startDate: '2024-06-01',
      endDate: '2024-06-06',
    });
    expect(
      input.destinations.map((d) => [d.name, d.startDate, d.endDate, d.latitude, d.longitude]),
    ).toEqual([
      ['Edinburgh', '2024-06-01', '2024-06-03', 55.9533, -3.1883],
      ['Glenfinnan', '2024-06-03', '2024-06-03', 56.8764, -5.4317],
      ['Portree, Isle of Skye', '2024-06-04', '2024-06-06', 57.4129, -6.1961],
    ]);
    // the BEL control character is stripped (contracts' plain text), the line break kept
    expect(input.destinations[2]!.story).toBe('Rain, then the Old Man of Storr in the sun.');
    expect(input.destinations[0]!.story).toBe("Arthur's Seat at sunrise.\nThen the Royal Mile.");
    expect(photos.map((p) => [p.index, p.photo.bytes])).toEqual([
      [0, 5000],
      [2, 6000],
    ]);
    expect(plan.skipped).toEqual({ photos: 0, destinations: 1, trips: 0 });
  });

  it('dates a step in its own time zone (23:00 UTC is the next day in London in June)', () => {
    expect(dayIn(1717282800, 'Europe/London')).toBe('2024-06-02');
    expect(dayIn(1717282800, 'Not/AZone')).toBe('2024-06-01');
    expect(dayIn(null, 'Europe/London')).toBeUndefined();
  });
});

describe('Wayfarer export', () => {
  it('keeps trips, visibility and the photos the archive holds', () => {
    const trips = [
      {
        id: 't1',
        name: 'Rome',
        startDate: '2025-04-01',
        endDate: '2025-04-03',
        visibility: 'private',
        destinations: [
          {
            id: 'd1',
            name: 'Colosseum',
            latitude: 41.8902,
            longitude: 12.4922,
            startDate: '2025-04-01',
            endDate: '2025-04-02',
            story: 'Underground tour.',
            photos: ['photos/t1/p1.jpg', 'photos/t1/p2.jpg'],
          },
        ],
      },
    ];
    const read = wayfarerTrips(
      trips,
      new Map([['wayfarer-export/photos/t1/p1.jpg', { bytes: 10 }]]),
    );
    expect(read!.missingPhotos).toBe(1);
    expect(read!.trips[0]).toMatchObject({ name: 'Rome', visibility: 'private' });
    expect(read!.trips[0]!.places[0]!.photos).toEqual([
      { entry: 'wayfarer-export/photos/t1/p1.jpg', bytes: 10 },
    ]);
    expect(wayfarerTrips({ not: 'trips' }, new Map())).toBeNull();
  });
});
