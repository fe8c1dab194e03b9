import { describe, expect, it } from 'vitest';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  moveActive,
  normalizeQuery,
  placesSearchUrl,
  shouldSearch,
  suggestionsFromApi,
  toPlaceChoice,
} from './places';

describe('place autocomplete rules', () => {
  it('debounces by about 200 ms', () => {
    expect(AUTOCOMPLETE_DEBOUNCE_MS).toBe(200);
  });

  it('normalises the query: trimmed, whitespace collapsed, at most 100 characters', () => {
    expect(normalizeQuery('  new   york \n')).toBe('new york');
    expect(normalizeQuery('x'.repeat(150))).toHaveLength(100);
    expect(normalizeQuery('   ')).toBe('');
  });

  it('searches from two characters', () => {
    expect(shouldSearch('')).toBe(false);
    expect(shouldSearch('p')).toBe(false);
    expect(shouldSearch('pa')).toBe(true);
    expect(shouldSearch('東京')).toBe(true);
  });

  it('builds the places URL with an encoded query and a limit', () => {
    expect(placesSearchUrl('São Paulo & co', 5)).toBe(
      '/api/places?query=S%C3%A3o+Paulo+%26+co&limit=5',
    );
  });

  it('moves the active option with arrows, wrapping at both ends', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowDown')).toBe(1);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(2, 3, 'ArrowUp')).toBe(1);
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1);
  });

  it('accepts only suggestions with a real location', () => {
    expect(
      toPlaceChoice({ name: 'Paris', label: 'Paris, France', latitude: 48.85, longitude: 2.35 }),
    ).toEqual({
      name: 'Paris',
      label: 'Paris, France',
      latitude: 48.85,
      longitude: 2.35,
    });
    expect(
      toPlaceChoice({ name: 'Nowhere', label: 'Nowhere', latitude: null, longitude: 2 }),
    ).toBeNull();
    expect(toPlaceChoice({ name: 'Bad', latitude: 91, longitude: 0 })).toBeNull();
    expect(toPlaceChoice({ name: 'Bad', latitude: 0, longitude: Number.NaN })).toBeNull();
    expect(toPlaceChoice({ latitude: 1, longitude: 1 })).toBeNull();
    expect(toPlaceChoice({ label: 'Only label', latitude: 1, longitude: 1 })?.name).toBe(
      'Only label',
    );
  });

  it('reads the /api/places answer', () => {
    expect(
      suggestionsFromApi({
        places: [
          {
            id: 1,
            name: 'Paris',
            country: 'FR',
            latitude: 48.85,
            longitude: 2.35,
            label: 'Paris, France',
          },
          {
            id: 2,
            name: 'Paris',
            country: 'US',
            latitude: 33.66,
            longitude: -95.55,
            label: 'Paris, Texas, United States',
          },
          { id: 3, name: '' },
        ],
      }),
    ).toEqual([
      {
        id: '1',
        name: 'Paris',
        label: 'Paris, France',
        detail: 'France',
        latitude: 48.85,
        longitude: 2.35,
      },
      {
        id: '2',
        name: 'Paris',
        label: 'Paris, Texas, United States',
        detail: 'Texas, United States',
        latitude: 33.66,
        longitude: -95.55,
      },
    ]);
    expect(suggestionsFromApi({})).toEqual([]);
    expect(suggestionsFromApi(null)).toEqual([]);
  });
});
