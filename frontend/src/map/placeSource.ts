import { apiFetch } from '../api/client';
import {
  AUTOCOMPLETE_LIMIT,
  placesSearchUrl,
  suggestionsFromApi,
  toPlaceChoice,
  type PlaceChoice,
  type PlaceSuggestion,
} from './places';

/** Where the autocomplete gets suggestions: our gazetteer (keyless) or Google Places. */
export interface PlaceSource {
  search(query: string, signal: AbortSignal): Promise<PlaceSuggestion[]>;
  /** The chosen suggestion with its location, or null when it has none. */
  resolve(suggestion: PlaceSuggestion): Promise<PlaceChoice | null>;
}

/** The keyless source: `GET /api/places?query=` on the gateway (session required). */
export const gazetteerPlaceSource: PlaceSource = {
  async search(query, signal) {
    const answer = await apiFetch<unknown>(placesSearchUrl(query, AUTOCOMPLETE_LIMIT), { signal });
    return suggestionsFromApi(answer);
  },
  async resolve(suggestion) {
    return toPlaceChoice(suggestion);
  },
};
