import { normalise } from './normalise';

const displayNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

const nameCache = new Map<string, string>();

/**
 * The English name of an ISO 3166 country code ("FR" → "France"), from the runtime's own ICU
 * data (no network). Unknown or malformed codes come back as they are.
 */
export function countryName(code: string): string {
  let name = nameCache.get(code);
  if (name === undefined) {
    try {
      name = displayNames.of(code) ?? code;
    } catch {
      name = code; // not a well-formed region code
    }
    nameCache.set(code, name);
  }
  return name;
}

/** Common names people type that differ from the ICU English name. Keys are normalised. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  america: 'US',
  'united states of america': 'US',
  uk: 'GB',
  britain: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  turkey: 'TR',
  holland: 'NL',
  'czech republic': 'CZ',
  burma: 'MM',
  'ivory coast': 'CI',
  swaziland: 'SZ',
  macedonia: 'MK',
  'east timor': 'TL',
};

/**
 * Resolves the country part of a "city, country" query to country codes, among `codes` (the
 * countries present in the data):
 * - a two-letter ISO code ("fr", "US") → that country only;
 * - otherwise every country whose normalised English name or alias starts with the text
 *   ("france" → FR, "united" → AE, GB, US, ..., "congo" → CD, CG).
 * Returns an empty set when nothing matches.
 */
export class CountryMatcher {
  private readonly codes: ReadonlySet<string>;
  private readonly names: ReadonlyArray<readonly [string, string]>;

  constructor(codes: Iterable<string>) {
    this.codes = new Set(codes);
    const names: Array<[string, string]> = [];
    for (const code of this.codes) names.push([normalise(countryName(code)), code]);
    for (const [alias, code] of Object.entries(ALIASES)) {
      if (this.codes.has(code)) names.push([alias, code]);
    }
    this.names = names;
  }

  match(text: string): Set<string> {
    const wanted = normalise(text);
    const found = new Set<string>();
    if (!wanted) return found;
    const code = wanted.toUpperCase();
    if (/^[A-Z]{2}$/.test(code) && this.codes.has(code)) return found.add(code);
    for (const [name, c] of this.names) if (name.startsWith(wanted)) found.add(c);
    return found;
  }
}
