import {
  countryAt,
  defaultAtlas,
  sharedCountries,
  travelStats,
  type Country,
  type StatsDestination,
  type StatsTrip,
} from '@wayfarer/atlas';
import type { FriendTrip, FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';

/**
 * The statistics from what social keeps of each trip: the list's summary (dates,
 * destinations with coordinates and dates) and each destination's country code, found once
 * when the trip's event was applied (`destinationCountries`). Pure but for the atlas's outlines,
 * read once at boot.
 */

/** A destination's country code (ISO 3166-1 alpha-2, or `XK`), or null at open sea. */
export type CountryCode = string | null;

/** The country of each destination, in order (what the trips row keeps in `countries`). */
export function destinationCountries(
  destinations: readonly { latitude: number; longitude: number }[],
): CountryCode[] {
  return destinations.map((d) => {
    try {
      return countryAt(d.latitude, d.longitude)?.code ?? null;
    } catch {
      // a coordinate the atlas refuses (beyond ±90°, not finite): in no country
      return null;
    }
  });
}

/** A trip as the stats read it: its summary and its destinations' stored countries. */
export interface StatsRow {
  summary: FriendTrip;
  /** In the summary's destination order; null when not yet computed (found now instead). */
  countries: readonly CountryCode[] | null;
}

/** The figures (contracts' `StatsResponse`) of the trips given. */
export function statsOf(rows: readonly StatsRow[]): StatsResponse {
  const atlas = defaultAtlas();
  const stored = new Map<StatsDestination, Country | null>();
  const trips: StatsTrip[] = rows.map(({ summary, countries }) => {
    const codes = countries ?? destinationCountries(summary.destinations);
    return {
      id: summary._id,
      startDate: summary.startDate,
      endDate: summary.endDate,
      destinations: summary.destinations.map((d, i) => {
        const destination: StatsDestination = {
          id: d._id,
          name: d.name,
          latitude: d.latitude,
          longitude: d.longitude,
          startDate: d.startDate,
          endDate: d.endDate,
        };
        const code = codes[i] ?? null;
        stored.set(destination, code === null ? null : (atlas.countries.get(code) ?? null));
        return destination;
      }),
    };
  });
  return travelStats(trips, (d) => stored.get(d) ?? null);
}

/** A friend's figures with the countries both have visited (the caller's own figures given). */
export function friendStatsOf(own: StatsResponse, friend: StatsResponse): FriendStatsResponse {
  return { ...friend, sharedCountries: sharedCountries(own, friend) };
}
