import type { CountryMatcher } from './countries';
import { normalise } from './normalise';

/** One way to read a query: a name prefix (normalised), maybe restricted to some countries. */
export interface Attempt {
  prefix: string;
  countries?: ReadonlySet<string>;
}

/**
 * How to read a query, in order; the first attempt that finds something wins.
 * - "paris, fr" / "paris, france" / "paris, united": when the text after the last comma names
 *   countries (code, English name prefix or common alias) and the part before it is not empty,
 *   first the part before the comma within those countries;
 * - then always the whole text as one name ("Washington, D.C." is one name in GeoNames).
 * A query that normalises to nothing (punctuation, emoji) has no attempts: no results.
 */
export function planQuery(query: string, countries: CountryMatcher): Attempt[] {
  const attempts: Attempt[] = [];
  const comma = query.lastIndexOf(',');
  if (comma >= 0) {
    const prefix = normalise(query.slice(0, comma));
    const codes = countries.match(query.slice(comma + 1));
    if (prefix && codes.size > 0) attempts.push({ prefix, countries: codes });
  }
  const whole = normalise(query);
  if (whole) attempts.push({ prefix: whole });
  return attempts;
}
