/**
 * Place search rules shared by both providers' autocomplete: query normalisation, when to
 * search, keyboard movement in the list, and validating what a suggestion resolves to.
 */

export const AUTOCOMPLETE_DEBOUNCE_MS = 200;
export const AUTOCOMPLETE_MIN_CHARS = 2;
export const AUTOCOMPLETE_MAX_CHARS = 100;
export const AUTOCOMPLETE_LIMIT = 8;

/** Trimmed, inner whitespace collapsed, cut to the longest query the server accepts. */
export function normalizeQuery(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, AUTOCOMPLETE_MAX_CHARS);
}

/** Whether a (normalised) query is worth a request. */
export function shouldSearch(query: string): boolean {
  return [...query].length >= AUTOCOMPLETE_MIN_CHARS;
}

export function placesSearchUrl(query: string, limit = AUTOCOMPLETE_LIMIT): string {
  const params = new URLSearchParams({ query, limit: String(limit) });
  return `/api/places?${params.toString()}`;
}

/**
 * The next active option for an arrow key: down from "none" goes to the first option, up from
 * "none" to the last, and both wrap around at the ends. -1 means no active option.
 */
export function moveActive(active: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count <= 0) return -1;
  if (key === 'ArrowDown') return active < 0 || active >= count - 1 ? 0 : active + 1;
  return active <= 0 ? count - 1 : active - 1;
}

/** What `onSelect` receives: a place with a real location. */
export interface PlaceChoice {
  name: string;
  label: string;
  latitude: number;
  longitude: number;
}

/** One row of the suggestion list. `resolve` fetches details when the provider needs to. */
export interface PlaceSuggestion {
  id: string;
  /** Primary text (e.g. the city). */
  name: string;
  /** Full text (e.g. "Paris, France"). */
  label: string;
  /** Secondary text shown under the name. */
  detail?: string;
  latitude?: number | null;
  longitude?: number | null;
}

const isCoordinate = (value: unknown, limit: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;

/** A suggestion with a usable location as a choice, or null when it has none. */
export function toPlaceChoice(suggestion: {
  name?: unknown;
  label?: unknown;
  latitude?: unknown;
  longitude?: unknown;
}): PlaceChoice | null {
  const { latitude, longitude } = suggestion;
  if (!isCoordinate(latitude, 90) || !isCoordinate(longitude, 180)) return null;
  const name = typeof suggestion.name === 'string' ? suggestion.name.trim() : '';
  const label = typeof suggestion.label === 'string' ? suggestion.label.trim() : '';
  if (!name && !label) return null;
  return { name: name || label, label: label || name, latitude, longitude };
}

/** The `/api/places` answer, tolerant of missing fields. */
export interface PlacesApiAnswer {
  places?: {
    id?: string | number;
    name?: string;
    country?: string;
    latitude?: number;
    longitude?: number;
    population?: number;
    label?: string;
  }[];
}

export function suggestionsFromApi(answer: unknown): PlaceSuggestion[] {
  const places = (answer as PlacesApiAnswer | null)?.places;
  if (!Array.isArray(places)) return [];
  return places.flatMap((place, i) => {
    const name = typeof place.name === 'string' ? place.name : '';
    if (!name) return [];
    const label = typeof place.label === 'string' && place.label ? place.label : name;
    const detail = label.startsWith(`${name}, `)
      ? label.slice(name.length + 2)
      : (place.country ?? undefined);
    return [
      {
        id: String(place.id ?? `${name}-${i}`),
        name,
        label,
        detail,
        latitude: place.latitude ?? null,
        longitude: place.longitude ?? null,
      },
    ];
  });
}
