import { gpx } from '@tmcw/togeojson';
import type { Feature, Position } from 'geojson';
import type { Document, Element } from '@xmldom/xmldom';
import { isCalendarDate } from '@wayfarer/contracts';
import { WAYFARER_GPX_END_DATE, WAYFARER_GPX_NAMESPACE } from '../export/gpx';
import type { DraftPlace, ImportDraft } from './draft';
import { utcDate } from './draft';
import { htmlToText } from './text';
import { childText } from './xml';

/**
 * A GPX document (`parseXml`) as one trip, read with `@tmcw/togeojson` (maintained, the
 * Mapbox converter, GPX 1.0 and 1.1):
 * - each waypoint is a destination (its name and description; dated by its `<time>`, else
 *   undated: the import's today), so a GPX of places, ours included, comes back place by place
 *   (with its end date when our own `<extensions>` give one, else ending the day it starts);
 * - track and route points are grouped by their UTC calendar day: a day no timed waypoint
 *   covers becomes ONE destination at the day's FIRST point (where the day started: a real
 *   point of the track, where a centroid could fall in a lake or between two valleys), named
 *   `Day N` (N counting calendar days from the track's first);
 * - a track or route without any time stands for a place only in a file with nothing else:
 *   one destination at its first point, named by it.
 * Destinations are in time order (undated ones last, in the file's order). The trip is named
 * by the GPX's metadata name, else its first track's or route's, else the file's.
 */
export function gpxDraft(doc: Document, fileName = ''): ImportDraft {
  const collection = gpx(doc);
  let tripName = childText(childElement(doc.documentElement, 'metadata'), 'name');

  const waypoints: Timed[] = [];
  const days = new Map<string, { at: Date; position: Position }>();
  const untimedLines: DraftPlace[] = [];
  const trackPoint = (at: Date | null, position: Position): boolean => {
    if (!at) return false;
    const day = utcDate(at);
    const first = days.get(day);
    if (!first || at < first.at) days.set(day, { at, position });
    return true;
  };

  // togeojson's Point features are the `<wpt>` elements, in the document's order
  const wpts = elements(doc.documentElement, 'wpt');
  for (const feature of collection.features) {
    const props = feature.properties ?? {};
    const name = typeof props.name === 'string' ? props.name : '';
    if (feature.geometry?.type === 'Point') {
      const story = htmlToText(typeof props.desc === 'string' ? props.desc : '');
      waypoints.push({
        at: timeOf(props.time),
        end: endDateOf(wpts[waypoints.length]),
        place: place(name, feature.geometry.coordinates, story),
      });
      continue;
    }
    // togeojson keeps no times of route points: routes are read from the document below
    if (props._gpxType === 'rte') continue;
    tripName ||= name;
    const lines = linesOf(feature);
    const times = timesOf(feature, lines.length);
    let timed = false;
    lines.forEach((line, l) =>
      line.forEach((position, p) => {
        if (trackPoint(timeOf(times[l]?.[p]), position)) timed = true;
      }),
    );
    if (!timed && lines[0]?.[0]) untimedLines.push(place(name, lines[0][0], ''));
  }
  for (const route of elements(doc.documentElement, 'rte')) {
    const name = childText(route, 'name');
    tripName ||= name;
    let timed = false;
    let first: Position | null = null;
    for (const point of elements(route, 'rtept')) {
      const position = [Number(point.getAttribute('lon')), Number(point.getAttribute('lat'))];
      first ??= position;
      if (trackPoint(timeOf(childText(point, 'time')), position)) timed = true;
    }
    if (!timed && first) untimedLines.push(place(name, first, ''));
  }

  const covered = new Set(waypoints.flatMap((w) => (w.at ? [utcDate(w.at)] : [])));
  const ordered = [...days.keys()].sort();
  const firstDay = ordered[0] ? Date.parse(ordered[0]) : 0;
  const trackDays = ordered
    .filter((day) => !covered.has(day))
    .map((day): Timed => {
      const n = Math.round((Date.parse(day) - firstDay) / 86_400_000) + 1;
      return {
        at: days.get(day)!.at,
        end: null,
        place: place(`Day ${n}`, days.get(day)!.position, ''),
      };
    });
  const dated = [...waypoints, ...trackDays]
    .filter((t): t is Timed & { at: Date } => t.at !== null)
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((t) => {
      const startDate = utcDate(t.at);
      const endDate = t.end !== null && t.end >= startDate ? t.end : startDate;
      return { ...t.place, startDate, endDate };
    });
  const undated = waypoints.filter((w) => w.at === null).map((w) => w.place);
  const places = [...dated, ...undated];
  return {
    format: 'gpx',
    trips: [
      {
        name: tripName || fileName || 'GPX',
        places: places.length > 0 ? places : untimedLines,
      },
    ],
    skippedPlaces: 0,
  };
}

interface Timed {
  at: Date | null;
  /** The end date our own export writes in the waypoint's `<extensions>` (`YYYY-MM-DD`). */
  end: string | null;
  place: DraftPlace;
}

/** A waypoint's end date from our `<extensions>`, when it is a real date. */
function endDateOf(wpt: Element | undefined): string | null {
  const extensions = childElement(wpt, 'extensions');
  const end = elements(extensions, WAYFARER_GPX_END_DATE).find(
    (e) => e.namespaceURI === WAYFARER_GPX_NAMESPACE,
  );
  const text = end?.textContent?.trim() ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text) ? text : null;
}

type Parent = { childNodes: ArrayLike<unknown> } | null | undefined;

/** The direct children of `parent` whose local name is `name`. */
function elements(parent: Parent, name: string): Element[] {
  if (!parent) return [];
  return (Array.from(parent.childNodes) as Element[]).filter((n) => n.localName === name);
}

function childElement(parent: Parent, name: string): Element | null {
  return elements(parent, name)[0] ?? null;
}

function place(name: string, [longitude, latitude]: Position, story: string): DraftPlace {
  return { name, latitude: latitude ?? NaN, longitude: longitude ?? NaN, story, photos: [] };
}

function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

function linesOf(feature: Feature): Position[][] {
  const geometry = feature.geometry;
  if (geometry?.type === 'LineString') return [geometry.coordinates];
  if (geometry?.type === 'MultiLineString') return geometry.coordinates;
  return [];
}

/** The per-point times togeojson keeps for a track: one list per segment (one unwrapped). */
function timesOf(feature: Feature, lines: number): unknown[][] {
  const coordinateProperties = (feature.properties?.coordinateProperties ?? {}) as {
    times?: unknown;
  };
  const times = coordinateProperties.times;
  if (!Array.isArray(times)) return [];
  return lines > 1 ? (times as unknown[][]) : [times];
}
