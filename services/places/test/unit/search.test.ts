import { describe, expect, it } from 'vitest';
import { type City, SEARCH_LIMITS, toPlace } from '../../src/domain/city';
import { LinearSearch } from '../../src/domain/linear-search';
import { buildPlaceIndex } from '../../src/domain/place-index';
import { CITIES } from '../fixtures';

const index = buildPlaceIndex(CITIES);
const labels = (found: City[]) => found.map((c) => toPlace(c).label);
const search = (query: string, limit?: number) => labels(index.search(query, limit));

describe('place search: prefix of the name', () => {
  it('ranks by population, biggest first', () => {
    expect(search('paris')).toEqual([
      'Paris, France',
      'Paris, United States',
      'Cormeilles-en-Parisis, France', // a later word, counted at a tenth: 2,197 > 500
      'Parisot, France',
    ]);
    expect(search('lon')).toEqual([
      'London, United Kingdom',
      'Londrina, Brazil',
      'London, Canada',
      'East London, South Africa',
    ]);
  });

  it('ignores accents on either side', () => {
    expect(search('zurich')).toEqual(['Zürich, Switzerland', 'Zurich, Netherlands']);
    expect(search('zürich')).toEqual(search('zurich'));
    expect(search('sao')).toEqual(['São Paulo, Brazil', 'São Luís, Brazil']);
    expect(search('são paulo')).toEqual(['São Paulo, Brazil']);
    expect(search('saint etienne')).toEqual(['Saint-Étienne, France']);
    expect(search('lodz')).toEqual(['Łódź, Poland']);
  });

  it('ignores case, extra spaces and punctuation', () => {
    expect(search('TOKYO')).toEqual(['Tokyo, Japan']);
    expect(search('  new   york ')).toEqual(['New York City, United States']);
    expect(search('saint-étienne')).toEqual(['Saint-Étienne, France']);
    expect(search("n'djamena")).toEqual(search('ndjamena'));
    expect(search('ndjamena')).toEqual(["N'Djamena, Chad"]);
  });

  it('matches a prefix only, not text inside a word', () => {
    expect(search('okyo')).toEqual([]);
    expect(search('aris')).toEqual([]);
    expect(search('tokyoo')).toEqual([]);
  });

  it('matches a multi-word query against the whole name', () => {
    expect(search('new y')).toEqual(['New York City, United States', 'New Yekepa, Liberia']);
    expect(search('new york c')).toEqual(['New York City, United States']);
  });
});

describe('place search: later words', () => {
  it('also finds a city by the start of a later word, at a tenth of its population', () => {
    // New York City counts 817,513 against York's 153,717.
    expect(search('york')).toEqual(['New York City, United States', 'York, United Kingdom']);
    // São Paulo counts 1,002,129 against Paulo Afonso's 85,350.
    expect(search('paulo')).toEqual(['São Paulo, Brazil', 'Paulo Afonso, Brazil']);
    expect(search('york city')).toEqual(['New York City, United States']);
  });

  it('does not return a city twice', () => {
    const ids = index.search('london', 20).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('place search: limits', () => {
  it(`answers at most ${SEARCH_LIMITS.default} by default`, () => {
    const many = buildPlaceIndex(
      Array.from({ length: 30 }, (_, i) => ({
        id: i + 1,
        name: `Town ${i}`,
        country: 'FR',
        latitude: 0,
        longitude: 0,
        population: 1000 + i,
      })),
    );
    expect(many.search('town')).toHaveLength(SEARCH_LIMITS.default);
    expect(many.search('town', 20)).toHaveLength(20);
    expect(many.search('town', 20)[0]!.name).toBe('Town 29');
  });

  it('keeps the best within the limit', () => {
    expect(search('paris', 1)).toEqual(['Paris, France']);
    expect(search('lon', 2)).toEqual(['London, United Kingdom', 'Londrina, Brazil']);
    expect(search('paris', 0)).toEqual([]);
  });
});

describe('place search: nothing to search', () => {
  it('finds nothing for empty, blank or junk queries', () => {
    for (const query of ['', '   ', '...', '!!!', '🙂', '🌍🌍', '-', ',', ' , ']) {
      expect(index.search(query), JSON.stringify(query)).toEqual([]);
    }
  });

  it('finds nothing for a query longer than every name', () => {
    expect(search('a'.repeat(100))).toEqual([]);
  });
});

describe('place search: "city, country"', () => {
  it('filters by a country code or name', () => {
    expect(search('paris, fr')).toEqual([
      'Paris, France',
      'Cormeilles-en-Parisis, France',
      'Parisot, France',
    ]);
    expect(search('paris, US')).toEqual(['Paris, United States']);
    expect(search('paris, united states')).toEqual(['Paris, United States']);
    expect(search('paris, usa')).toEqual(['Paris, United States']);
    expect(search('london, ca')).toEqual(['London, Canada']);
    expect(search('london, can')).toEqual(['London, Canada']);
  });

  it('reads the text as one name when the country part names no country or finds nothing', () => {
    // "Washington, D.C." is one name in GeoNames
    expect(search('washington, d.c.')).toEqual(['Washington, D.C., United States']);
    expect(search('washington, d')).toEqual(['Washington, D.C., United States']);
    expect(search('paris, atlantis')).toEqual([]);
    expect(search('paris, jp')).toEqual([]);
  });

  it('ignores an empty country part', () => {
    expect(search('tokyo,')).toEqual(['Tokyo, Japan']);
    expect(search('tokyo, ')).toEqual(['Tokyo, Japan']);
  });
});

describe('place search: ties', () => {
  it('orders equal populations by name, then by GeoNames id', () => {
    expect(index.search('spring').map((c) => [c.name, c.id])).toEqual([
      ['Springdale', 182],
      ['Springfield', 180],
      ['Springfield', 181],
    ]);
  });

  it('does not depend on the order of the input list', () => {
    const reversed = buildPlaceIndex([...CITIES].reverse());
    for (const query of ['spring', 'paris', 'lon', 'york', 's', 'n']) {
      expect(reversed.search(query, 20)).toEqual(index.search(query, 20));
    }
  });
});

describe('the index', () => {
  it('answers exactly like a linear scan with the same rules', () => {
    const reference = new LinearSearch(CITIES);
    const queries = ['a', 'e', 'l', 'lo', 'n', 'ne', 'p', 's', 'sa', 'sp', 'y', 'z', 'ber'];
    queries.push('paris, fr', 'l, gb', 's, us', 'mun', 'munchen', 'bei', 'city', 'd c');
    for (const query of queries) {
      for (const limit of [1, 3, 8, 20]) {
        expect(index.search(query, limit), `${query} / ${limit}`).toEqual(
          reference.search(query, limit),
        );
      }
    }
  });

  it('counts the cities it can find', () => {
    expect(index.size).toBe(CITIES.length);
    expect(buildPlaceIndex([{ ...CITIES[0]!, name: '...' }]).size).toBe(0);
    expect(buildPlaceIndex([]).search('a')).toEqual([]);
  });
});

describe('toPlace', () => {
  it('is the API shape with a readable label', () => {
    expect(toPlace(CITIES[0]!)).toEqual({
      id: '100',
      name: 'Paris',
      country: 'FR',
      latitude: CITIES[0]!.latitude,
      longitude: CITIES[0]!.longitude,
      population: 2_138_551,
      label: 'Paris, France',
    });
  });
});
