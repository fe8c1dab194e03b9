import { dateOnly, decimal, tripTitle, type ExportableTrip } from './text';

/*
 * iCalendar (RFC 5545) by hand: a few properties, with the format's rules on text (escaping,
 * CRLF, lines folded at 75 octets without splitting a UTF-8 character).
 */

const CRLF = '\r\n';
/** A content line's most octets, its line break not counted (RFC 5545 section 3.1). */
const LINE_OCTETS = 75;

export const ICS_PRODID = '-//Wayfarer//Trip export//EN';
/** Where a destination's event `UID` is unique: `<destinationId>@wayfarer`. */
export const ICS_UID_DOMAIN = 'wayfarer';

/**
 * A TEXT value (section 3.3.11): backslash, semicolon and comma escaped, each line break
 * (CRLF, CR or LF) as `\n`; other control characters, which TEXT cannot hold, left out (so are
 * lone surrogates, which UTF-8 cannot).
 */
export function icsText(text: string): string {
  return (
    text
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      .replace(/[\u0000-\u0008\u000A-\u001F\u007F]|\p{Cs}/gu, '')
  );
}

const utf8Octets = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * A content line folded (section 3.1): at most 75 octets per line, each continuation starting
 * with one space (which counts), broken only between characters (code points), never inside
 * one's UTF-8 bytes. Ends with CRLF.
 */
export function foldLine(line: string): string {
  let out = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Octets(char.codePointAt(0)!);
    if (octets + size > LINE_OCTETS) {
      out += `${CRLF} `;
      octets = 1;
    }
    out += char;
    octets += size;
  }
  return out + CRLF;
}

/** `YYYYMMDD` of a `YYYY-MM-DD` date, `days` later (a DATE value). */
function icsDate(date: string, days = 0): string {
  const [y, m, d] = dateOnly(date).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d + days));
  return day.toISOString().slice(0, 10).replaceAll('-', '');
}

/** A UTC DATE-TIME (`YYYYMMDDTHHMMSSZ`). */
const icsDateTime = (at: Date): string =>
  at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

interface AllDayEvent {
  uid: string;
  summary: string;
  description: string;
  startDate: string;
  endDate: string;
  geo?: { latitude: number; longitude: number };
}

function eventLines(event: AllDayEvent, stamp: string): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${icsText(event.uid)}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${icsDate(event.startDate)}`,
    // the end of an all-day event is exclusive: the day after its last day
    `DTEND;VALUE=DATE:${icsDate(event.endDate, 1)}`,
    `SUMMARY:${icsText(event.summary)}`,
    ...(event.description === '' ? [] : [`DESCRIPTION:${icsText(event.description)}`]),
    ...(event.geo ? [`GEO:${decimal(event.geo.latitude)};${decimal(event.geo.longitude)}`] : []),
    // a trip's days do not make its traveller busy in a calendar it is imported into
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ];
}

/**
 * An iCalendar object of the trip: `X-WR-CALNAME`/`NAME` its name, one all-day `VEVENT` per
 * destination (`UID` `<destinationId>@wayfarer`, the same in every export, so importing again
 * updates rather than duplicates; `DTSTART`/`DTEND` as DATEs, the end exclusive; `SUMMARY` its
 * name, `DESCRIPTION` its story when it has one, `GEO`). A trip without destinations has one
 * event for its own dates (`<tripId>@wayfarer`): a calendar must hold a component. `DTSTAMP`
 * is `now` (the export's time), else the trip's creation, else its first day.
 */
export function tripIcs(trip: ExportableTrip, now?: Date): string {
  const stampAt = now ?? trip.createdAt ?? new Date(`${dateOnly(trip.startDate)}T00:00:00Z`);
  const stamp = icsDateTime(stampAt);
  const title = tripTitle(trip);
  const events: AllDayEvent[] =
    trip.destinations.length > 0
      ? trip.destinations.map((d) => ({
          uid: `${d._id}@${ICS_UID_DOMAIN}`,
          summary: d.name,
          description: d.story,
          startDate: d.startDate,
          endDate: d.endDate,
          geo: { latitude: d.latitude, longitude: d.longitude },
        }))
      : [
          {
            uid: `${trip._id}@${ICS_UID_DOMAIN}`,
            summary: title,
            description: '',
            startDate: trip.startDate,
            endDate: trip.endDate,
          },
        ];
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${ICS_PRODID}`,
    'CALSCALE:GREGORIAN',
    `NAME:${icsText(title)}`,
    `X-WR-CALNAME:${icsText(title)}`,
    ...events.flatMap((event) => eventLines(event, stamp)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('');
}
