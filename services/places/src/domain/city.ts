import { countryName } from './countries';

/** One city of the dataset, as the index keeps it. */
export interface City {
  /** GeoNames id. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2 code, e.g. "FR". */
  country: string;
  latitude: number;
  longitude: number;
  population: number;
}

/** One search result as the API answers it. */
export interface Place {
  /** The GeoNames id, as a string. */
  id: string;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
  /** "Paris, France": the name and the English country name. */
  label: string;
}

export { PlaceSearchLimits as SEARCH_LIMITS } from '@wayfarer/contracts';

/**
 * A city found by a later word of its name ("york" in "New York City") ranks as if it had a
 * tenth of its population: a big city still shows ("paulo" → São Paulo first), a small one does
 * not push whole-name matches aside ("paris" → the Parises before Cormeilles-en-Parisis).
 */
export const WORD_MATCH_DIVISOR = 10;

export function toPlace(city: City): Place {
  return {
    id: String(city.id),
    name: city.name,
    country: city.country,
    latitude: city.latitude,
    longitude: city.longitude,
    population: city.population,
    label: `${city.name}, ${countryName(city.country)}`,
  };
}

/** Plain UTF-16 code unit order: the order of `<`, used by the sort and the binary search. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A city with its normalised name. */
export interface KeyedCity {
  city: City;
  key: string;
}

/** The rank order of cities: population descending, then normalised name, name, GeoNames id. */
export function compareRank(a: KeyedCity, b: KeyedCity): number {
  return (
    b.city.population - a.city.population ||
    compareText(a.key, b.key) ||
    compareText(a.city.name, b.city.name) ||
    a.city.id - b.city.id
  );
}

/** Something that answers place searches (the index, and the linear reference). */
export interface PlaceSearch {
  readonly size: number;
  search(query: string, limit?: number): City[];
}
