import { dateOnly, decimal, tripTitle, type ExportableTrip, type ExportedPlace } from './text';
import { XML_DECLARATION, xmlElement } from './xml';

/** KML's coordinate tuple: longitude first. */
const tuple = (d: ExportedPlace): string => `${decimal(d.longitude)},${decimal(d.latitude)}`;

const timeSpan = (range: { startDate: string; endDate: string }): string =>
  `<TimeSpan><begin>${dateOnly(range.startDate)}</begin><end>${dateOnly(range.endDate)}</end></TimeSpan>`;

/**
 * A KML 2.2 document of the trip: a `<Document>` named after it with its dates as a
 * `<TimeSpan>`, one `<Placemark>` per destination (`<name>`, `<description>` its story when it
 * has one, `<TimeSpan>` its first and last day, a `<Point>`) and, with two destinations or
 * more, a last Placemark "Route" with a `<LineString>` through them in the trip's order.
 * Children in the order KML's schema asks (name, description, time, geometry).
 */
export function tripKml(trip: ExportableTrip): string {
  const title = tripTitle(trip);
  const lines = [
    XML_DECLARATION,
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    '  <Document>',
    `    ${xmlElement('name', title)}`,
    `    ${timeSpan(trip)}`,
  ];
  for (const d of trip.destinations) {
    lines.push(
      '    <Placemark>',
      `      ${xmlElement('name', d.name)}`,
      ...(d.story === '' ? [] : [`      ${xmlElement('description', d.story)}`]),
      `      ${timeSpan(d)}`,
      `      <Point><coordinates>${tuple(d)}</coordinates></Point>`,
      '    </Placemark>',
    );
  }
  if (trip.destinations.length >= 2) {
    lines.push(
      '    <Placemark>',
      `      ${xmlElement('name', ROUTE_NAME)}`,
      `      <LineString><tessellate>1</tessellate><coordinates>${trip.destinations.map(tuple).join(' ')}</coordinates></LineString>`,
      '    </Placemark>',
    );
  }
  lines.push('  </Document>', '</kml>');
  return lines.filter((line) => line.trim() !== '').join('\n') + '\n';
}

/** The name of the KML's line through the destinations. */
export const ROUTE_NAME = 'Route';
