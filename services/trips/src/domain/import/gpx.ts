import { gpx } from '@tmcw/togeojson';
import type { Feature, Position } from 'geojson';
import type { Document } from '@xmldom/xmldom';
import type { DraftPlace, ImportDraft } from './draft';
import { utcDate } from './draft';
import { htmlToText } from './text';
import { childText } from './xml';

/**
 * A GPX document (`parseXml`) as one trip, read with `@tmcw/togeojson` (maintained, the
 * Mapbox converter, GPX 1.0 and 1.1):
 * - every timed point (waypoints, track and route points) is grouped by its UTC calendar day;
 *   each day is ONE destination at the day's FIRST point (where the day started: a real point
 *   of the track, where a centroid could fall in the sea or between two valleys), named by the
 *   first named waypoint of that day, else `Day N` (N counting calendar days from the first),
 *   its story the day's waypoint descriptions;
 * - a waypoint without a time is a destination of its own (undated: the import's today);
 * - a track or route without times is one undated destination at its first point, named by it.
 * The trip is named by the GPX's metadata name, else its first track's or route's, else `GPX`.
 */
export function gpxDraft(doc: Document, fileName = ''): ImportDraft {
  const collection = gpx(doc);
  const metadata = Array.from(doc.documentElement?.childNodes ?? []).find(
    (n) => (n as { localName?: string }).localName === 'metadata',
  ) as Parameters<typeof childText>[0] | undefined;
  let tripName = childText(metadata ?? null, 'name');

  const days = new Map<string, Day>();
  const untimed: DraftPlace[] = [];
  const dayOfPoint = (at: Date | null, position: Position): Day | null => {
    if (!at) return null;
    const day = utcDate(at);
    let entry = days.get(day);
    if (!entry) days.set(day, (entry = { day, first: at, position, names: [], stories: [] }));
    else if (at < entry.first) Object.assign(entry, { first: at, position });
    return entry;
  };

  for (const feature of collection.features) {
    const props = feature.properties ?? {};
    const name = typeof props.name === 'string' ? props.name : '';
    const story = htmlToText(typeof props.desc === 'string' ? props.desc : '');
    if (feature.geometry?.type === 'Point') {
      const position = feature.geometry.coordinates;
      const day = dayOfPoint(timeOf(props.time), position);
      if (day) {
        if (name) day.names.push(name);
        if (story) day.stories.push(story);
      } else {
        untimed.push(place(name, position, story));
      }
      continue;
    }
    tripName ||= name;
    const lines = linesOf(feature);
    const times = timesOf(feature, lines.length);
    let timed = false;
    lines.forEach((line, l) =>
      line.forEach((position, p) => {
        if (dayOfPoint(timeOf(times[l]?.[p]), position)) timed = true;
      }),
    );
    if (!timed && lines[0]?.[0]) untimed.push(place(name, lines[0][0], story));
  }

  const ordered = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  const firstDay = ordered[0] ? Date.parse(ordered[0].day) : 0;
  const dated = ordered.map((d): DraftPlace => ({
    ...place(
      d.names[0] ?? `Day ${Math.round((Date.parse(d.day) - firstDay) / 86_400_000) + 1}`,
      d.position,
      d.stories.join('\n\n'),
    ),
    startDate: d.day,
    endDate: d.day,
  }));
  return {
    format: 'gpx',
    trips: [{ name: tripName || fileName || 'GPX', places: [...dated, ...untimed] }],
    skippedPlaces: 0,
  };
}

interface Day {
  day: string;
  first: Date;
  position: Position;
  names: string[];
  stories: string[];
}

function place(name: string, [longitude, latitude]: Position, story: string): DraftPlace {
  return { name, latitude: latitude ?? NaN, longitude: longitude ?? NaN, story, photos: [] };
}

function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

function linesOf(feature: Feature): Position[][] {
  const geometry = feature.geometry;
  if (geometry?.type === 'LineString') return [geometry.coordinates];
  if (geometry?.type === 'MultiLineString') return geometry.coordinates;
  return [];
}

/** The per-point times togeojson keeps: one list per line (a single line's list unwrapped). */
function timesOf(feature: Feature, lines: number): unknown[][] {
  const coordinateProperties = (feature.properties?.coordinateProperties ?? {}) as {
    times?: unknown;
  };
  const times = coordinateProperties.times;
  if (!Array.isArray(times)) return [];
  return lines > 1 ? (times as unknown[][]) : [times];
}
