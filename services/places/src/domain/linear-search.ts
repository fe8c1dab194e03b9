import {
  type City,
  compareRank,
  type KeyedCity,
  type PlaceSearch,
  SEARCH_LIMITS,
  WORD_MATCH_DIVISOR,
} from './city';
import { CountryMatcher } from './countries';
import { normalise } from './normalise';
import { planQuery } from './query';

/**
 * The obvious way to answer the same searches: look at every city on every query (its name
 * normalised once, up front), keep those whose name or a later word starts with the query, and
 * sort them. Same rules as PlaceIndex, no index: the reference the tests compare the index
 * against, and the baseline of the benchmark. Not used to serve requests.
 */
export class LinearSearch implements PlaceSearch {
  private readonly cities: readonly KeyedCity[];
  private readonly countries: CountryMatcher;

  constructor(cities: readonly City[]) {
    this.cities = cities
      .map((city) => ({ city, key: normalise(city.name) }))
      .filter((c) => c.key.length > 0);
    this.countries = new CountryMatcher(new Set(cities.map((c) => c.country)));
  }

  get size(): number {
    return this.cities.length;
  }

  search(query: string, limit: number = SEARCH_LIMITS.default): City[] {
    if (limit < 1) return [];
    for (const { prefix, countries } of planQuery(query, this.countries)) {
      const found: Array<KeyedCity & { score: number; whole: boolean }> = [];
      for (const c of this.cities) {
        if (countries && !countries.has(c.city.country)) continue;
        if (c.key.startsWith(prefix)) {
          found.push({ ...c, score: c.city.population, whole: true });
        } else if (c.key.includes(` ${prefix}`)) {
          found.push({ ...c, score: c.city.population / WORD_MATCH_DIVISOR, whole: false });
        }
      }
      if (found.length === 0) continue;
      found.sort(
        (a, b) => b.score - a.score || Number(b.whole) - Number(a.whole) || compareRank(a, b),
      );
      return found.slice(0, limit).map((c) => c.city);
    }
    return [];
  }
}
