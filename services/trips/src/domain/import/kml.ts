import { kml } from '@tmcw/togeojson';
import type { Document } from '@xmldom/xmldom';
import { dayOf, utcDate, type DraftPlace, type ImportDraft } from './draft';
import { htmlToText } from './text';
import { childText } from './xml';

/**
 * A KML document (`parseXml`) as one trip, read with `@tmcw/togeojson`: each Placemark with a
 * Point is a destination (name; `description`, often HTML, as its story in plain text; dates
 * from its TimeSpan `begin`/`end` or its TimeStamp `when`). Placemarks of other shapes are
 * counted as skipped. The trip is named by the Document's name.
 */
export function kmlDraft(doc: Document, fileName = ''): ImportDraft {
  const collection = kml(doc);
  const document = Array.from(doc.documentElement?.childNodes ?? []).find(
    (n) => (n as { localName?: string }).localName === 'Document',
  ) as Parameters<typeof childText>[0] | undefined;
  const places: DraftPlace[] = [];
  let skippedPlaces = 0;
  for (const feature of collection.features) {
    if (feature.geometry?.type !== 'Point') {
      skippedPlaces++;
      continue;
    }
    const props = feature.properties ?? {};
    const [longitude, latitude] = feature.geometry.coordinates;
    const span = (props.timespan ?? {}) as { begin?: unknown; end?: unknown };
    const startDate = kmlDay(span.begin) ?? kmlDay(props.timestamp);
    places.push({
      name: typeof props.name === 'string' ? props.name : '',
      latitude: latitude ?? NaN,
      longitude: longitude ?? NaN,
      startDate,
      endDate: kmlDay(span.end) ?? startDate,
      story: descriptionOf(props.description),
      photos: [],
    });
  }
  return {
    format: 'kml',
    trips: [{ name: childText(document ?? null, 'name') || fileName || 'KML', places }],
    skippedPlaces,
  };
}

/** A KML time (`dateTime`, `date`, or a `gYearMonth`/`gYear` we cannot place on a day). */
function kmlDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // a UTC instant is the day it is in UTC; a date or a local time is the day written
  if (/T.*Z$/.test(value.trim())) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) return utcDate(at);
  }
  return dayOf(value);
}

/** togeojson gives a description as a string, or as `{'@type': 'html', value}`. */
function descriptionOf(value: unknown): string {
  if (typeof value === 'string') return htmlToText(value);
  if (
    value &&
    typeof value === 'object' &&
    typeof (value as { value?: unknown }).value === 'string'
  ) {
    return htmlToText((value as { value: string }).value);
  }
  return '';
}
