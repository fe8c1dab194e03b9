import { dateOnly, decimal, tripTitle, type ExportableTrip, type ExportedPlace } from './text';
import { XML_DECLARATION, xmlAttribute, xmlElement } from './xml';

const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
const GPX_SCHEMA = 'http://www.topografix.com/GPX/1/1/gpx.xsd';

/**
 * GPX has no end date for a point: ours goes in the waypoint's `<extensions>` (which the schema
 * leaves open to any other namespace), so an import of our own GPX keeps each destination's
 * dates; other readers skip it. `WAYFARER_GPX_NAMESPACE` is also what the import looks for.
 */
export const WAYFARER_GPX_NAMESPACE = 'urn:wayfarer:gpx:1';
export const WAYFARER_GPX_END_DATE = 'endDate';

/**
 * GPX 1.1's longitude is `-180 <= lon < 180`: 180 (the same meridian as -180, which the trip
 * form accepts) is written as -180.
 */
const gpxLongitude = (lon: number): number => (lon >= 180 ? lon - 360 : lon);

/** The point's `lat`/`lon` attributes (GPX's `wptType`, which route points are too). */
const pointAttributes = (d: ExportedPlace): string =>
  `lat="${xmlAttribute(decimal(d.latitude))}" lon="${xmlAttribute(decimal(gpxLongitude(d.longitude)))}"`;

/** A destination's start date as GPX's `xsd:dateTime`: midnight UTC of that day. */
const startTime = (d: ExportedPlace): string => `${dateOnly(d.startDate)}T00:00:00Z`;

/**
 * A GPX 1.1 document of the trip: `<metadata>` with its name (and its dates as `<desc>`), one
 * `<wpt>` per destination (`<time>` its start date, `<name>`, `<desc>` its story when it has
 * one, its end date in our `<extensions>`) and, with two destinations or more, a `<rte>` through them in the trip's order. Children
 * in the order the schema's sequences ask (`time` before `name` before `desc`).
 */
export function tripGpx(trip: ExportableTrip): string {
  const title = tripTitle(trip);
  const lines = [
    XML_DECLARATION,
    `<gpx version="1.1" creator="Wayfarer" xmlns="${GPX_NAMESPACE}" xmlns:wayfarer="${WAYFARER_GPX_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${GPX_NAMESPACE} ${GPX_SCHEMA}">`,
    '  <metadata>',
    `    ${xmlElement('name', title)}`,
    `    ${xmlElement('desc', `${dateOnly(trip.startDate)} to ${dateOnly(trip.endDate)}`)}`,
    '  </metadata>',
  ];
  for (const d of trip.destinations) {
    lines.push(
      `  <wpt ${pointAttributes(d)}>`,
      `    <time>${startTime(d)}</time>`,
      `    ${xmlElement('name', d.name)}`,
      ...(d.story === '' ? [] : [`    ${xmlElement('desc', d.story)}`]),
      '    <extensions>',
      `      ${xmlElement(`wayfarer:${WAYFARER_GPX_END_DATE}`, dateOnly(d.endDate))}`,
      '    </extensions>',
      '  </wpt>',
    );
  }
  if (trip.destinations.length >= 2) {
    lines.push('  <rte>', `    ${xmlElement('name', title)}`);
    for (const d of trip.destinations) {
      lines.push(
        `    <rtept ${pointAttributes(d)}>`,
        `      <time>${startTime(d)}</time>`,
        `      ${xmlElement('name', d.name)}`,
        '    </rtept>',
      );
    }
    lines.push('  </rte>');
  }
  lines.push('</gpx>', '');
  return lines.filter((line) => line.trim() !== '').join('\n') + '\n';
}
