import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { NUMERIC_TO_ALPHA2, UNCODED_FEATURES } from '../src/codes';
import { continentCodes } from '../src/continents';
import { continentOf, countryName, defaultAtlas, WORLD_COUNTRIES } from '../src/index';

const topology = (resolution: string) =>
  JSON.parse(
    readFileSync(
      createRequire(import.meta.url).resolve(`world-atlas/countries-${resolution}.json`),
      'utf8',
    ),
  ) as Topology;
const features = (resolution: string) =>
  (topology(resolution).objects.countries as GeometryCollection<{ name: string }>).geometries;

const normalise = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/**
 * Where the dataset's name and the runtime's English name do not share their first three
 * letters, the pair, checked as a whole (so a wrong code still fails).
 */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  'Dem. Rep. Congo': 'Congo - Kinshasa',
  Congo: 'Congo - Brazzaville',
  'Cabo Verde': 'Cape Verde',
  'Br. Indian Ocean Ter.': 'British Indian Ocean Territory',
  'Fr. S. Antarctic Lands': 'French Southern Territories',
  'Fr. Polynesia': 'French Polynesia',
  'S. Geo. and the Is.': 'South Georgia & South Sandwich Islands',
  'W. Sahara': 'Western Sahara',
  'S. Sudan': 'South Sudan',
  'N. Mariana Is.': 'Northern Mariana Islands',
  'Eq. Guinea': 'Equatorial Guinea',
  Macedonia: 'North Macedonia',
  'U.S. Virgin Is.': 'U.S. Virgin Islands',
  'U.S. Minor Outlying Is.': 'U.S. Outlying Islands',
  Turkey: 'Türkiye',
  'Falkland Is.': 'Falkland Islands',
  'Faeroe Is.': 'Faroe Islands',
  'St. Vin. and Gren.': 'St. Vincent & Grenadines',
  'Heard I. and McDonald Is.': 'Heard & McDonald Islands',
  'St. Pierre and Miquelon': 'St. Pierre & Miquelon',
  'St. Kitts and Nevis': 'St. Kitts & Nevis',
  'St-Barthélemy': 'St. Barthélemy',
  'St-Martin': 'St. Martin',
  'Saint Helena': 'St. Helena',
  'Saint Lucia': 'St. Lucia',
  'Ashmore and Cartier Is.': 'Australia',
  Palestine: 'Palestinian Territories',
};

describe('the ISO numeric to alpha-2 table', () => {
  for (const resolution of ['50m', '10m']) {
    it(`codes every feature of countries-${resolution}, with the country the dataset names`, () => {
      const wrong: string[] = [];
      for (const { id, properties } of features(resolution)) {
        const { name } = properties as { name: string };
        if (id === undefined) {
          if (!(name in UNCODED_FEATURES)) wrong.push(`${name}: no id and no rule`);
          continue;
        }
        const code = NUMERIC_TO_ALPHA2[String(id)];
        if (!code) {
          wrong.push(`${id} ${name}: not in the table`);
          continue;
        }
        const english = countryName(code);
        const expected = OTHER_NAMES[name];
        const same = expected
          ? english === expected
          : normalise(english).slice(0, 3) === normalise(name).slice(0, 3);
        if (!same) wrong.push(`${id} ${name} -> ${code} "${english}"`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('maps each number to its own code, each a region the runtime names', () => {
    const codes = Object.values(NUMERIC_TO_ALPHA2);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of [...codes, 'XK', 'CX', 'CC']) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(countryName(code)).not.toBe(code);
    }
  });
});

describe('continents and the world share', () => {
  it('puts every country the atlas answers on a continent', () => {
    const atlas = defaultAtlas();
    const missing = [...atlas.data.codes].filter((code) => !continentOf(code));
    expect(missing).toEqual([]);
    expect(atlas.countries.size).toBeGreaterThan(240);
  }, 60_000);

  it('puts each code on one continent, as M49 does (Cyprus in Europe)', () => {
    const all = continentCodes();
    for (const code of Object.values(NUMERIC_TO_ALPHA2)) expect(all.has(code)).toBe(true);
    expect(continentOf('RU')).toBe('Europe');
    expect(continentOf('TR')).toBe('Asia');
    expect(continentOf('GE')).toBe('Asia');
    expect(continentOf('CY')).toBe('Europe');
    expect(continentOf('EG')).toBe('Africa');
    expect(continentOf('PA')).toBe('North America');
    expect(continentOf('CO')).toBe('South America');
    expect(continentOf('GL')).toBe('North America');
    expect(continentOf('GF')).toBe('South America');
    expect(continentOf('RE')).toBe('Africa');
    expect(continentOf('NZ')).toBe('Oceania');
    expect(continentOf('PF')).toBe('Oceania');
    expect(continentOf('AQ')).toBe('Antarctica');
    expect(continentOf('ZZ')).toBeNull();
  });

  it('counts 195 countries (UN members and observers), each one the atlas can find', () => {
    expect(WORLD_COUNTRIES.size).toBe(195);
    const atlas = defaultAtlas();
    expect([...WORLD_COUNTRIES].filter((code) => !atlas.countries.has(code))).toEqual([]);
    for (const territory of ['GL', 'PR', 'HK', 'GI', 'PF', 'XK', 'TW', 'RE']) {
      expect(WORLD_COUNTRIES.has(territory)).toBe(false);
    }
  }, 60_000);
});
