import countriesUrl from 'world-atlas/countries-50m.json?url';
import { shapesFromTopology, type CountryShape } from './worldShapes';

let pending: Promise<CountryShape[]> | null = null;

/**
 * The atlas map's shapes, once per page: the same static asset as the keyless basemap
 * (`loadBasemap`), so a browser that showed the map already has it.
 */
export function loadWorldShapes(): Promise<CountryShape[]> {
  pending ??= fetch(countriesUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`atlas outlines: HTTP ${res.status}`);
      return res.json();
    })
    .then(shapesFromTopology)
    .catch((err: unknown) => {
      pending = null;
      throw err;
    });
  return pending;
}
