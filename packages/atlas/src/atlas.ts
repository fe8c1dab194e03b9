import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Topology } from 'topojson-specification';
import { type Continent, continentOf } from './continents';
import { countryName } from './countries';
import { type AtlasData, buildAtlas } from './lookup';

/** A country as the atlas answers it. */
export interface Country {
  /** ISO 3166-1 alpha-2 (and XK for Kosovo). */
  code: string;
  /** English name (Intl.DisplayNames, CLDR). */
  name: string;
  continent: Continent;
}

/**
 * world-atlas's outlines the lookup reads. The 1:10m file, not the 1:50m one the map draws:
 * at 1:50m there is no Gibraltar nor Tuvalu, and generalised land borders put El Paso in Mexico
 * (README, "Data").
 */
export const ATLAS_RESOLUTION = '10m';
export type Resolution = '10m' | '50m' | '110m';

/** Reads one of world-atlas's countries files (the only I/O of the package). */
export function loadTopology(resolution: Resolution = ATLAS_RESOLUTION): Topology {
  const path = createRequire(import.meta.url).resolve(`world-atlas/countries-${resolution}.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as Topology;
}

/** A country lookup: `countryAt` and the answers it is made of. */
export interface Atlas {
  readonly data: AtlasData;
  /** The country at a point (coast rule: README), or null at open sea. */
  countryAt(latitude: number, longitude: number): Country | null;
  /** Every country the atlas can answer, by code. */
  readonly countries: ReadonlyMap<string, Country>;
}

/** Builds an atlas from a world-atlas countries topology (every code must have a continent). */
export function createAtlas(topology: Topology = loadTopology()): Atlas {
  const data = buildAtlas(topology);
  const countries = new Map<string, Country>();
  for (const code of data.codes) {
    const continent = continentOf(code);
    if (!continent) throw new Error(`country ${code} has no continent in continents.ts`);
    countries.set(code, Object.freeze({ code, name: countryName(code), continent }));
  }
  return {
    data,
    countries,
    countryAt(latitude, longitude) {
      const hit = data.locate(latitude, longitude);
      return hit ? countries.get(hit.code)! : null;
    },
  };
}

let shared: Atlas | undefined;

/** The package's atlas, built at first use (about 1.3 s, about 25 MB retained). */
export function defaultAtlas(): Atlas {
  return (shared ??= createAtlas());
}

/**
 * The country at a point: the one whose outline holds it, else the nearest whose border is
 * within COAST_KM (30 km), else null (open sea). Throws a RangeError for a latitude outside
 * [-90, 90] or a non-finite coordinate; any longitude is wrapped into [-180, 180).
 */
export function countryAt(latitude: number, longitude: number): Country | null {
  return defaultAtlas().countryAt(latitude, longitude);
}
