import { z } from 'zod';
import { CONTINENTS } from './continents';

/** A country code and its English name (what `sharedCountries` answers). */
export const CountryRef = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string(),
});
export type CountryRef = z.infer<typeof CountryRef>;

/** One visited country: when first, and how many destinations in it. */
export const VisitedCountry = CountryRef.extend({
  /** The earliest start date (`YYYY-MM-DD`) of a destination in the country. */
  firstVisited: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** How many destinations lie in the country. */
  destinations: z.number().int().positive(),
});
export type VisitedCountry = z.infer<typeof VisitedCountry>;

export const ContinentCount = z.object({
  name: z.enum(CONTINENTS),
  countryCount: z.number().int().positive(),
});
export type ContinentCount = z.infer<typeof ContinentCount>;

/** A traveller's figures (the `GET /api/stats` body). */
export const TravelStats = z.object({
  countryCount: z.number().int().nonnegative(),
  /** By first visit, then name. */
  countries: z.array(VisitedCountry),
  /** Only continents with a visited country; most countries first, then by name. */
  continents: z.array(ContinentCount),
  /** Visited UN members and observers / 195 (0..1, 4 decimals); README, "World share". */
  worldShare: z.number().min(0).max(1),
  tripCount: z.number().int().nonnegative(),
  destinationCount: z.number().int().nonnegative(),
  /** Distinct calendar days inside the trips' date ranges (overlaps counted once). */
  daysTravelled: z.number().int().nonnegative(),
  /** Great-circle km along each trip's destinations in their order, summed (1 decimal). */
  distanceKm: z.number().nonnegative(),
});
export type TravelStats = z.infer<typeof TravelStats>;
