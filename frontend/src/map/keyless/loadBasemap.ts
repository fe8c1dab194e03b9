import countriesUrl from 'world-atlas/countries-50m.json?url';
import { basemapFromTopology, type Basemap } from './basemap';

let pending: Promise<Basemap> | null = null;

/**
 * The bundled world basemap: world-atlas countries at 1:50m, shipped as a static asset of our
 * own build (same origin, no tile server), converted to flat-map GeoJSON once per page.
 */
export function loadBasemap(): Promise<Basemap> {
  pending ??= fetch(countriesUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`basemap: HTTP ${res.status}`);
      return res.json();
    })
    .then(basemapFromTopology)
    .catch((err: unknown) => {
      pending = null;
      throw err;
    });
  return pending;
}
