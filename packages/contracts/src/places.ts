import { z } from 'zod';
import { plainText } from './text';

/** Result limits of `GET /api/places`. */
export const PlaceSearchLimits = { default: 8, max: 20, queryMax: 100 } as const;
const SEARCH_LIMITS = PlaceSearchLimits;
/** Longest query accepted; longer than any place name in the data (65 characters). */
const QUERY_MAX = PlaceSearchLimits.queryMax;

const limitMessage = `Limit must be a whole number from 1 to ${SEARCH_LIMITS.max}.`;

/** `GET /api/places` query string. */
export const PlacesQuery = z.object({
  query: plainText('line', {
    error: (issue) => (issue.input === undefined ? 'Query is required.' : 'Query must be text.'),
  })
    .trim()
    .min(1, 'Query must not be empty.')
    .max(QUERY_MAX, `Query must be at most ${QUERY_MAX} characters.`),
  limit: z
    .string({ error: limitMessage })
    .regex(/^\d{1,3}$/, limitMessage)
    .transform(Number)
    .pipe(z.number().int().min(1, limitMessage).max(SEARCH_LIMITS.max, limitMessage))
    .default(SEARCH_LIMITS.default),
});
export type PlacesQuery = z.infer<typeof PlacesQuery>;

export const Place = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  population: z.number(),
  label: z.string(),
});

export type Place = z.infer<typeof Place>;

/** `GET /api/places` answer. */
export const PlacesResponse = z.object({ places: z.array(Place) });
export type PlacesResponse = z.infer<typeof PlacesResponse>;
