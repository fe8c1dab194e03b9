import { z } from 'zod';
import { ImportMessages } from '@wayfarer/contracts';
import { InvalidTripError } from '../errors';
import { dayOf, type DraftPlace, type ImportDraft } from './draft';

const Properties = z.record(z.string(), z.unknown()).nullish();

const Feature = z.object({
  type: z.literal('Feature'),
  geometry: z
    .object({ type: z.string(), coordinates: z.unknown().optional() })
    .passthrough()
    .nullable(),
  properties: Properties,
});

/** A GeoJSON FeatureCollection (RFC 7946), checked only as far as the import reads it. */
export const FeatureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(Feature),
  /** Not in RFC 7946, but common (and what Wayfarer's own export writes): the trip's name. */
  name: z.string().optional(),
  properties: Properties,
});

const Point = z.tuple([z.number(), z.number()]).rest(z.number());

const text = (...values: unknown[]) => {
  const found = values.find((v) => typeof v === 'string' && v.trim() !== '');
  return typeof found === 'string' ? found : '';
};

/**
 * A parsed GeoJSON document as one trip: each Point feature is a destination (`name` or
 * `title`; `startDate`/`endDate`, else `date` or `time`; `story` or `description`); features
 * of other shapes are counted as skipped. The trip is named by the collection's `name` (or its
 * `properties.name`). Anything that is not a FeatureCollection is a 400: the document was read
 * whole within `ImportLimits.textMaxBytes`, so `JSON.parse` cannot nest deeper than that.
 */
export function geojsonDraft(document: unknown, fileName = ''): ImportDraft {
  const parsed = FeatureCollection.safeParse(document);
  if (!parsed.success) throw new InvalidTripError(ImportMessages.unsupported);
  const places: DraftPlace[] = [];
  let skippedPlaces = 0;
  for (const feature of parsed.data.features) {
    const point =
      feature.geometry?.type === 'Point' ? Point.safeParse(feature.geometry.coordinates) : null;
    if (!point?.success) {
      skippedPlaces++;
      continue;
    }
    const props = feature.properties ?? {};
    const startDate = dayOf(props.startDate) ?? dayOf(props.date) ?? dayOf(props.time);
    places.push({
      name: text(props.name, props.title),
      longitude: point.data[0],
      latitude: point.data[1],
      startDate,
      endDate: dayOf(props.endDate) ?? startDate,
      story: text(props.story, props.description),
      photos: [],
    });
  }
  const name = text(parsed.data.name, parsed.data.properties?.name);
  return {
    format: 'geojson',
    trips: [{ name: name || fileName || 'GeoJSON', places }],
    skippedPlaces,
  };
}
