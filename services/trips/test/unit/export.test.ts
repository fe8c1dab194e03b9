import { describe, expect, it } from 'vitest';
import { TripExportFormats, TripExportMediaTypes } from '@wayfarer/contracts';
import {
  exportTripFile,
  isTripExportFormat,
  tripFileSlug,
  tripFileTitle,
  type ExportableTrip,
} from '../../src/domain/export';
import { tripGeoJson } from '../../src/domain/export/geojson';
import { tripGpx } from '../../src/domain/export/gpx';
import { foldLine, icsText, tripIcs } from '../../src/domain/export/ics';
import { tripKml } from '../../src/domain/export/kml';
import { decimal } from '../../src/domain/export/text';
import { xmlAttribute, xmlText } from '../../src/domain/export/xml';
import { readGeoJson, readGpx, readIcs, readKml, schemaErrors } from '../export-formats';

/** Every character text needs escaped in one of the formats, a line break of each kind, CJK, an emoji. */
const STORY = 'Tea & <cake> at "Café" ; it\'s 5,50 €\\ok\nsecond line\r\nthird 東京 🗻';
/** What XML and iCalendar cannot hold: a NUL, a C0 control, a lone surrogate, U+FFFE. */
const FORBIDDEN = '\u0000\u0007\uD800\uFFFE';

const trip: ExportableTrip = {
  _id: '65a000000000000000000001',
  name: 'Été à Kyōto & Ōsaka',
  startDate: '2024-02-28',
  endDate: '2025-01-01',
  createdAt: new Date('2024-01-15T08:30:00.000Z'),
  destinations: [
    {
      _id: '65a0000000000000000000a1',
      name: 'Kyōto <old> & "new"',
      latitude: 35.0116,
      longitude: 135.7681,
      startDate: '2024-02-28',
      endDate: '2024-02-29',
      story: STORY + FORBIDDEN,
    },
    {
      _id: '65a0000000000000000000a2',
      name: 'Ōsaka',
      latitude: -0.0000001,
      longitude: -179.5,
      startDate: '2024-12-30',
      endDate: '2024-12-31',
      story: '',
    },
  ],
};
const [kyoto, osaka] = trip.destinations as [
  ExportableTrip['destinations'][0],
  ExportableTrip['destinations'][0],
];
const empty: ExportableTrip = { ...trip, name: '', destinations: [] };

describe('XML text (domain/export/xml.ts)', () => {
  it('escapes markup and keeps line breaks and tabs as references where a parser would change them', () => {
    expect(xmlText(`a<b>&"'`)).toBe('a&lt;b&gt;&amp;&quot;&apos;');
    expect(xmlText('a\r\nb\tc\nd')).toBe('a&#13;\nb\tc\nd');
    expect(xmlAttribute('a\r\nb\tc')).toBe('a&#13;&#10;b&#9;c');
  });

  it('leaves out what XML 1.0 forbids, keeps astral characters', () => {
    expect(xmlText(`x${FORBIDDEN}\u0008\u001F\uFFFFy🗻`)).toBe('xy🗻');
  });
});

describe('coordinates as decimals', () => {
  it('never in exponent form, reading back the same number', () => {
    for (const n of [0, 1.5, -0.0000001, 1e-12, 135.7681, -179.5, 89.99999999]) {
      expect(decimal(n)).not.toMatch(/e/i);
      expect(Number(decimal(n))).toBe(n);
    }
  });
});

describe('GPX 1.1', () => {
  it('is valid against the GPX 1.1 schema, with a trip of two destinations and of none', async () => {
    expect(await schemaErrors(tripGpx(trip), 'gpx')).toEqual([]);
    expect(await schemaErrors(tripGpx(empty), 'gpx')).toEqual([]);
  });

  it('the validator does refuse what the schema does (a longitude of 180, a name before time)', async () => {
    const valid = tripGpx({ ...trip, destinations: [kyoto] });
    expect(await schemaErrors(valid.replace('lon="135.7681"', 'lon="180"'), 'gpx')).not.toEqual([]);
    const swapped = valid.replace(/(<time>.*?<\/time>)(\s*)(<name>.*?<\/name>)/, '$3$2$1');
    expect(await schemaErrors(swapped, 'gpx')).not.toEqual([]);
  });

  it('reads back (togeojson): a waypoint per destination with its name, start, end, story and place; the route in order', () => {
    const features = readGpx(tripGpx(trip)).features;
    const points = features.filter((f) => f.geometry?.type === 'Point');
    expect(points.map((f) => f.properties)).toEqual([
      // the end date is in our <extensions>, which togeojson reads as `prefix_name`
      {
        name: kyoto.name,
        time: '2024-02-28T00:00:00Z',
        desc: STORY,
        wayfarer_endDate: '2024-02-29',
      },
      { name: 'Ōsaka', time: '2024-12-30T00:00:00Z', wayfarer_endDate: '2024-12-31' },
    ]);
    expect(points.map((f) => f.geometry)).toEqual([
      { type: 'Point', coordinates: [135.7681, 35.0116] },
      { type: 'Point', coordinates: [-179.5, -0.0000001] },
    ]);
    const route = features.find((f) => f.geometry?.type === 'LineString');
    expect(route?.properties?.name).toBe(trip.name);
    expect(route?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [135.7681, 35.0116],
        [-179.5, -0.0000001],
      ],
    });
  });

  it('names the trip in <metadata>; an unnamed trip is "Untitled trip"; no waypoint or route without destinations', () => {
    expect(tripGpx(trip)).toMatch(/<metadata>\s*<name>Été à Kyōto &amp; Ōsaka<\/name>/);
    const none = tripGpx(empty);
    expect(none).toContain('<name>Untitled trip</name>');
    expect(none).not.toMatch(/<wpt|<rte/);
    expect(readGpx(none).features).toEqual([]);
  });

  it('writes longitude 180 as -180 (GPX: -180 <= lon < 180), still valid', async () => {
    const at180 = { ...trip, destinations: [{ ...osaka, longitude: 180 }] };
    const xml = tripGpx(at180);
    expect(xml).toContain('lon="-180"');
    expect(await schemaErrors(xml, 'gpx')).toEqual([]);
  });
});

describe('KML 2.2', () => {
  it('is valid against the OGC KML 2.2 schema, with a trip of two destinations and of none', async () => {
    expect(await schemaErrors(tripKml(trip), 'kml')).toEqual([]);
    expect(await schemaErrors(tripKml(empty), 'kml')).toEqual([]);
  });

  it('the validator does refuse what the schema does (a description before the name)', async () => {
    const swapped = tripKml(trip).replace(
      /(<name>[^<]*<\/name>)(\s*)(<description>[^<]*<\/description>)/,
      '$3$2$1',
    );
    expect(await schemaErrors(swapped, 'kml')).not.toEqual([]);
  });

  it('reads back (togeojson): a placemark per destination with name, story, days and [lon, lat]; a route line', () => {
    const features = readKml(tripKml(trip)).features;
    expect(features.slice(0, 2).map((f) => [f.properties, f.geometry])).toEqual([
      [
        {
          name: kyoto.name,
          description: STORY,
          timespan: { begin: '2024-02-28', end: '2024-02-29' },
        },
        { type: 'Point', coordinates: [135.7681, 35.0116] },
      ],
      [
        { name: 'Ōsaka', timespan: { begin: '2024-12-30', end: '2024-12-31' } },
        { type: 'Point', coordinates: [-179.5, -0.0000001] },
      ],
    ]);
    expect(features[2]?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [135.7681, 35.0116],
        [-179.5, -0.0000001],
      ],
    });
    expect(features).toHaveLength(3);
  });

  it('has no route line for a single destination, and no placemark without destinations', () => {
    expect(readKml(tripKml({ ...trip, destinations: [kyoto] })).features).toHaveLength(1);
    expect(readKml(tripKml(empty)).features).toEqual([]);
    expect(tripKml(empty)).toContain('<name>Untitled trip</name>');
  });
});

describe('GeoJSON (RFC 7946)', () => {
  it('passes check-geojson: a Point feature per destination, [lon, lat], the trip as foreign members', () => {
    const doc = readGeoJson(tripGeoJson(trip)) as unknown as Record<string, unknown> & {
      features: { id: string; geometry: unknown; properties: unknown }[];
    };
    expect(doc.type).toBe('FeatureCollection');
    expect(doc).not.toHaveProperty('properties');
    expect(doc.name).toBe(trip.name);
    expect(doc.trip).toEqual({
      id: trip._id,
      name: trip.name,
      startDate: '2024-02-28',
      endDate: '2025-01-01',
    });
    expect(doc.features.map((f) => [f.id, f.geometry, f.properties])).toEqual([
      [
        kyoto._id,
        { type: 'Point', coordinates: [135.7681, 35.0116] },
        { name: kyoto.name, startDate: '2024-02-28', endDate: '2024-02-29', story: kyoto.story },
      ],
      [
        osaka._id,
        { type: 'Point', coordinates: [-179.5, -0.0000001] },
        { name: 'Ōsaka', startDate: '2024-12-30', endDate: '2024-12-31', story: '' },
      ],
    ]);
  });

  it('a trip without destinations is an empty FeatureCollection', () => {
    const doc = readGeoJson(tripGeoJson(empty)) as { features: unknown[]; trip?: unknown };
    expect(doc.features).toEqual([]);
    expect(doc.trip).toMatchObject({ name: '' });
  });
});

describe('iCalendar (RFC 5545)', () => {
  it('escapes TEXT: backslash, semicolon, comma, each line break as \\n; controls left out', () => {
    expect(icsText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
    expect(icsText(`x${FORBIDDEN}\ty`)).toBe('x\uFFFE\ty');
  });

  it('folds at 75 octets with CRLF and a space, never inside a UTF-8 character', () => {
    expect(foldLine('a'.repeat(75))).toBe(`${'a'.repeat(75)}\r\n`);
    expect(foldLine('a'.repeat(76))).toBe(`${'a'.repeat(75)}\r\n a\r\n`);
    // the 75th octet falls inside 東 (3 octets): it goes to the next line whole
    expect(foldLine(`${'a'.repeat(73)}東京`)).toBe(`${'a'.repeat(73)}\r\n 東京\r\n`);
    // a 4-octet emoji is one code point (a surrogate pair in JS): never split either
    const folded = foldLine(`DESCRIPTION:${'🗻'.repeat(40)}`);
    for (const line of folded.split('\r\n').slice(0, -1)) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(Buffer.from(line).toString()).toBe(line);
      expect(line).not.toMatch(/[\uD800-\uDBFF]$|^ ?[\uDC00-\uDFFF]/);
    }
    expect(folded.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'🗻'.repeat(40)}\r\n`);
  });

  it('every line of the file ends in CRLF and is at most 75 octets', () => {
    const ics = tripIcs({ ...trip, destinations: [{ ...kyoto, story: STORY.repeat(5) }] });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics).not.toMatch(/[^\r]\n|\r(?!\n)/);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('reads back (ical.js): one all-day event per destination, the end exclusive, story, place, stable UID', () => {
    const now = new Date('2026-11-26T17:00:05.123Z');
    const calendar = readIcs(tripIcs(trip, now));
    expect(calendar).toMatchObject({ version: '2.0', prodid: '-//Wayfarer//Trip export//EN' });
    expect(calendar.name).toBe(trip.name);
    expect(calendar.events).toEqual([
      {
        uid: `${kyoto._id}@wayfarer`,
        summary: kyoto.name,
        // the CRLF comes back as a newline (TEXT has one kind); the forbidden characters are gone
        description: STORY.replace('\r\n', '\n').replace(/[\uD800]/, '') + '\uFFFE',
        // a leap day: 28 and 29 February, so the end is 1 March
        start: '2024-02-28',
        end: '2024-03-01',
        allDay: true,
        geo: [35.0116, 135.7681],
        stamp: '2026-11-26T17:00:05Z',
      },
      {
        uid: `${osaka._id}@wayfarer`,
        summary: 'Ōsaka',
        description: null,
        // the last day of the year: the end is in the next one
        start: '2024-12-30',
        end: '2025-01-01',
        allDay: true,
        geo: [-0.0000001, -179.5],
        stamp: '2026-11-26T17:00:05Z',
      },
    ]);
  });

  it('DTSTAMP is the trip creation without a time given; the same trip gives the same file', () => {
    expect(readIcs(tripIcs(trip)).events[0]?.stamp).toBe('2024-01-15T08:30:00Z');
    expect(tripIcs(trip)).toBe(tripIcs(structuredClone(trip)));
  });

  it('a trip without destinations has one event for its own days (a calendar needs one)', () => {
    const calendar = readIcs(tripIcs(empty));
    expect(calendar.name).toBe('Untitled trip');
    expect(calendar.events).toEqual([
      expect.objectContaining({
        uid: `${trip._id}@wayfarer`,
        summary: 'Untitled trip',
        start: '2024-02-28',
        end: '2025-01-02',
        allDay: true,
        geo: null,
      }),
    ]);
  });
});

describe('exportTripFile', () => {
  it('answers each format with its media type and the trip name as an ASCII file name', () => {
    for (const format of TripExportFormats) {
      const file = exportTripFile(trip, format);
      expect(file.contentType).toBe(TripExportMediaTypes[format]);
      expect(file.fileName).toBe(`ete-a-kyoto-osaka.${format}`);
      expect(file.body.length).toBeGreaterThan(0);
    }
    expect(exportTripFile(trip, 'ics').body).toBe(tripIcs(trip));
    expect(exportTripFile(trip, 'ics', { now: new Date(0) }).body).toContain(
      'DTSTAMP:19700101T000000Z',
    );
  });

  it('knows its formats', () => {
    expect(TripExportFormats.every(isTripExportFormat)).toBe(true);
    for (const other of ['pdf', 'GPX', 'json', '', 'toString', '__proto__']) {
      expect(isTripExportFormat(other)).toBe(false);
    }
  });

  it('slugs a name safely: accents dropped, other runs a dash, at most 60, "trip" when nothing is left', () => {
    expect(tripFileSlug('Été à Kyōto & Ōsaka')).toBe('ete-a-kyoto-osaka');
    expect(tripFileSlug('../../etc/passwd')).toBe('etc-passwd');
    expect(tripFileSlug('a "quoted"\r\nname;x=y')).toBe('a-quoted-name-x-y');
    expect(tripFileSlug('東京')).toBe('trip');
    expect(tripFileSlug('')).toBe('trip');
    expect(tripFileSlug('🗻🗻')).toBe('trip');
    const long = tripFileSlug(`${'word '.repeat(30)}end`);
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('titles a file as the trip is called, without what file systems refuse', () => {
    expect(tripFileTitle('Été à Kyōto & Ōsaka', 'gpx')).toBe('Été à Kyōto & Ōsaka.gpx');
    expect(tripFileTitle('../etc/passwd', 'kml')).toBe('-etc-passwd.kml');
    expect(tripFileTitle('a "b"\r\n<c>:d|e?', 'ics')).toBe('a -b-c-d-e-.ics');
    expect(tripFileTitle('  ', 'geojson')).toBe('trip.geojson');
    expect([...tripFileTitle('🗻'.repeat(100), 'gpx')]).toHaveLength(60 + '.gpx'.length);
  });
});
