import { SocialLimits, SocialMessages } from '@wayfarer/contracts';

/**
 * A name as search compares it: decomposed (NFD, NFKD for ligatures and full-width letters)
 * with its combining marks dropped, then lower-cased. 'Zoë Ångström' -> 'zoe angstrom'. Stored
 * next to each user's name (PostgreSQL's unaccent extension is not everywhere), and applied to
 * every query, so both sides are compared the same way.
 */
export function searchKey(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC');
}

/**
 * A LIKE pattern matching names that contain `key` literally: `\`, `%` and `_` are escaped (the
 * query runs with `ESCAPE '\'`), so they match themselves; regex characters mean nothing to
 * LIKE.
 */
export function containsPattern(key: string): string {
  return `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type SearchQuery =
  { kind: 'empty' } | { kind: 'search'; pattern: string } | { kind: 'tooLong'; message: string };

/**
 * What `?query=` asks for: blank (the spec ignores an empty query: nothing is looked up), too
 * long (refused), or a contains-pattern on the search key.
 */
export function readSearchQuery(raw: string | undefined): SearchQuery {
  const query = (raw ?? '').trim();
  if (query.length === 0) return { kind: 'empty' };
  if ([...query].length > SocialLimits.searchQueryMax) {
    return { kind: 'tooLong', message: SocialMessages.queryTooLong };
  }
  const key = searchKey(query);
  if (key.length === 0) return { kind: 'empty' };
  return { kind: 'search', pattern: containsPattern(key) };
}
