import { type Country, countryAt } from './atlas';
import { CONTINENTS, type Continent } from './continents';
import { WORLD_COUNTRIES } from './countries';
import { haversineKm } from './geo';
import type { ContinentCount, CountryRef, TravelStats, VisitedCountry } from './schema';

/** A destination as the stats need it (dates `YYYY-MM-DD`, or ISO date-times: the day is used). */
export interface StatsDestination {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
}

export interface StatsTrip {
  id: string;
  startDate: string;
  endDate: string;
  /** In the trip's order: the distance follows it. */
  destinations: readonly StatsDestination[];
}

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD...` date as a day number (days since 1970-01-01), or null when not a date. */
function dayNumber(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/** Distinct days inside the ranges (each inclusive; a range given backwards is read forwards). */
export function distinctDays(
  ranges: ReadonlyArray<{ startDate: string; endDate: string }>,
): number {
  const spans: Array<[number, number]> = [];
  for (const { startDate, endDate } of ranges) {
    const a = dayNumber(startDate);
    const b = dayNumber(endDate) ?? a;
    if (a === null || b === null) continue;
    spans.push([Math.min(a, b), Math.max(a, b)]);
  }
  spans.sort((x, y) => x[0] - y[0]);
  let days = 0;
  let coveredTo = -Infinity; // the last day counted so far
  for (const [start, end] of spans) {
    if (end <= coveredTo) continue;
    days += end - Math.max(start, coveredTo + 1) + 1;
    coveredTo = end;
  }
  return days;
}

/** Great-circle km along the destinations in their order. */
export function pathKm(points: ReadonlyArray<{ latitude: number; longitude: number }>): number {
  let km = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    km += haversineKm(a.latitude, a.longitude, b.latitude, b.longitude);
  }
  return km;
}

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/**
 * A traveller's figures from their trips: the countries of the destinations (by
 * `countryOf`, the atlas by default; a destination at open sea counts as a destination but in
 * no country), first visit and destinations per country, continents, world share, trips,
 * destinations, days and distance.
 */
export function travelStats(
  trips: readonly StatsTrip[],
  countryOf: (destination: StatsDestination) => Country | null = (d) =>
    countryAt(d.latitude, d.longitude),
): TravelStats {
  const visited = new Map<string, VisitedCountry & { continent: Continent }>();
  let destinationCount = 0;
  let distanceKm = 0;
  for (const trip of trips) {
    destinationCount += trip.destinations.length;
    distanceKm += pathKm(trip.destinations);
    for (const destination of trip.destinations) {
      const country = countryOf(destination);
      if (!country) continue;
      const day = destination.startDate.slice(0, 10);
      const seen = visited.get(country.code);
      if (!seen) {
        visited.set(country.code, {
          code: country.code,
          name: country.name,
          firstVisited: day,
          destinations: 1,
          continent: country.continent,
        });
      } else {
        seen.destinations += 1;
        if (day < seen.firstVisited) seen.firstVisited = day;
      }
    }
  }
  const countries = [...visited.values()].sort(
    (a, b) => a.firstVisited.localeCompare(b.firstVisited) || a.name.localeCompare(b.name),
  );
  const perContinent = new Map<Continent, number>();
  for (const { continent } of countries) {
    perContinent.set(continent, (perContinent.get(continent) ?? 0) + 1);
  }
  const continents: ContinentCount[] = CONTINENTS.filter((name) => perContinent.has(name))
    .map((name) => ({ name, countryCount: perContinent.get(name)! }))
    .sort((a, b) => b.countryCount - a.countryCount || a.name.localeCompare(b.name));
  const inWorld = countries.filter(({ code }) => WORLD_COUNTRIES.has(code)).length;
  return {
    countryCount: countries.length,
    countries: countries.map(({ code, name, firstVisited, destinations }) => ({
      code,
      name,
      firstVisited,
      destinations,
    })),
    continents,
    worldShare: round(inWorld / WORLD_COUNTRIES.size, 4),
    tripCount: trips.length,
    destinationCount,
    daysTravelled: distinctDays(trips),
    distanceKm: round(distanceKm, 1),
  };
}

/** The countries both have visited, by name (e.g. a traveller's and a friend's stats). */
export function sharedCountries(
  a: { countries: readonly CountryRef[] },
  b: { countries: readonly CountryRef[] },
): CountryRef[] {
  const theirs = new Set(b.countries.map(({ code }) => code));
  return a.countries
    .filter(({ code }) => theirs.has(code))
    .map(({ code, name }) => ({ code, name }))
    .sort((x, y) => x.name.localeCompare(y.name));
}
