import type { PlacesResponse } from '@wayfarer/contracts';
import { toPlace } from '../domain/city';
import { IndexNotReadyError } from '../domain/errors';
import type { PlaceIndex } from '../domain/place-index';

/** What a search needs: the city index once built, else null. */
export interface SearchDeps {
  index: () => PlaceIndex | null;
}

/**
 * The places best matching `query` (prefixes, accents, "city, country": `domain/`), at most
 * `limit`. Before the index is built: IndexNotReadyError.
 */
export function searchPlaces(deps: SearchDeps, query: string, limit: number): PlacesResponse {
  const index = deps.index();
  if (!index) throw new IndexNotReadyError();
  return { places: index.search(query, limit).map(toPlace) };
}
