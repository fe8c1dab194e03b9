import { readFile } from 'node:fs/promises';
import { check } from '@placemarkio/check-geojson';
import { gpx, kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import ICAL from 'ical.js';
import { validateXML } from 'xmllint-wasm';

/*
 * Each per-trip export format read back by an independent, maintained parser (never by our
 * own code), and the XML ones checked against their published XSDs (test/schemas, see its
 * README) by libxml2 (xmllint-wasm: no network, no native install).
 */

const schemaDir = new URL('./schemas/', import.meta.url);
const schemaFile = async (fileName: string) => ({
  fileName,
  contents: await readFile(new URL(fileName, schemaDir), 'utf8'),
});

const SCHEMAS = {
  gpx: { main: 'gpx-1.1.xsd', imports: [] as string[] },
  kml: { main: 'ogckml22.xsd', imports: ['atom-author-link.xsd', 'xAL.xsd', 'kml22gx.xsd'] },
} as const;

/** The XSD errors of `xml` (none when it is valid), as libxml2 reports them. */
export async function schemaErrors(xml: string, format: keyof typeof SCHEMAS): Promise<string[]> {
  const { main, imports } = SCHEMAS[format];
  const result = await validateXML({
    xml: [{ fileName: `export.${format}`, contents: xml }],
    schema: [await schemaFile(main)],
    preload: await Promise.all(imports.map(schemaFile)),
  });
  return result.errors.map((e) => e.rawMessage);
}

/** An XML document parsed by xmldom, any warning or error thrown (not recovered from). */
export function parseXml(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`xmldom ${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

/** What togeojson reads (a DOM Document; xmldom's is one in all it uses). */
type XmlDocument = Parameters<typeof gpx>[0];

/** GPX as togeojson reads it: waypoints and the route as GeoJSON features. */
export const readGpx = (xml: string) => gpx(parseXml(xml) as unknown as XmlDocument);

/** KML as togeojson reads it: placemarks as GeoJSON features. */
export const readKml = (xml: string) => kml(parseXml(xml) as unknown as XmlDocument);

/** GeoJSON checked by @placemarkio/check-geojson (throws on any issue), parsed. */
export const readGeoJson = (text: string) => check(text);

export interface CalendarEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: string;
  end: string;
  allDay: boolean;
  geo: [number, number] | null;
  stamp: string;
}

/** An iCalendar object as ical.js reads it: its properties and its events. */
export function readIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const value = (name: string) => calendar.getFirstPropertyValue(name);
  const events: CalendarEvent[] = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    const geo = vevent.getFirstPropertyValue('geo') as [number, number] | null;
    return {
      uid: event.uid,
      summary: event.summary,
      description: (vevent.getFirstPropertyValue('description') as string | null) ?? null,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate && event.endDate.isDate,
      geo,
      stamp: String(vevent.getFirstPropertyValue('dtstamp')),
    };
  });
  return {
    version: value('version'),
    prodid: value('prodid'),
    name: value('x-wr-calname'),
    events,
  };
}
