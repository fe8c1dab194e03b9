import { z } from 'zod';

/**
 * A traveller's statistics as social answers them: `GET /api/stats` (the signed-in user, every live
 * trip, private ones included) and `GET /api/stats/friends/{friendId}` (a current friend's trips
 * as friends see them, plus the countries both have visited). The figures are computed by
 * `@wayfarer/atlas` (`travelStats`), whose own zod schemas these match (social's tests parse the
 * atlas's answers with these): they are written out here so contracts (read by the browser)
 * does not depend on the atlas and its outlines.
 */

/** The seven continents (atlas `CONTINENTS`, the same list, checked by a test). */
export const StatsContinent = z.enum([
  'Africa',
  'Antarctica',
  'Asia',
  'Europe',
  'North America',
  'Oceania',
  'South America',
]);
export type StatsContinent = z.infer<typeof StatsContinent>;

/** A country: ISO 3166-1 alpha-2 code (and `XK`) and its English name. */
export const StatsCountryRef = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string(),
});
export type StatsCountryRef = z.infer<typeof StatsCountryRef>;

/** A visited country: the earliest start date (`YYYY-MM-DD`) of a destination there, how many. */
export const StatsVisitedCountry = StatsCountryRef.extend({
  firstVisited: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  destinations: z.number().int().positive(),
});
export type StatsVisitedCountry = z.infer<typeof StatsVisitedCountry>;

export const StatsContinentCount = z.object({
  name: StatsContinent,
  countryCount: z.number().int().positive(),
});
export type StatsContinentCount = z.infer<typeof StatsContinentCount>;

/** `GET /api/stats`: a traveller's figures (atlas README, `TravelStats`). */
export const StatsResponse = z.object({
  countryCount: z.number().int().nonnegative(),
  /** By first visit, then name. */
  countries: z.array(StatsVisitedCountry),
  /** Only continents with a visited country, most countries first, then by name. */
  continents: z.array(StatsContinentCount),
  /** Visited UN members and observers / 195 (0..1, 4 decimals). */
  worldShare: z.number().min(0).max(1),
  tripCount: z.number().int().nonnegative(),
  destinationCount: z.number().int().nonnegative(),
  /** Distinct calendar days inside the trips' date ranges. */
  daysTravelled: z.number().int().nonnegative(),
  /** Great-circle km along each trip's destinations in order, summed (1 decimal). */
  distanceKm: z.number().nonnegative(),
});
export type StatsResponse = z.infer<typeof StatsResponse>;

/**
 * `GET /api/stats/friends/{friendId}`: the friend's figures from the trips friends may see
 * (private ones left out), and the countries both have visited (the caller's side counting all
 * their own trips), by name.
 */
export const FriendStatsResponse = StatsResponse.extend({
  sharedCountries: z.array(StatsCountryRef),
});
export type FriendStatsResponse = z.infer<typeof FriendStatsResponse>;

export const StatsMessages = {
  /** Not a current friend, or no such user: the same answer. */
  friendNotFound: 'Friend not found.',
} as const;
