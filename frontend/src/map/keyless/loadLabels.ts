import countries from './labels/countries.json';
import {
  cityLabels,
  countryLabels,
  type CityBand,
  type CityRow,
  type CountryRow,
  type MapLabel,
} from './labels';

/** Country names: small (~3 kB gzip), bundled with the keyless map. */
export const COUNTRY_LABELS: MapLabel[] = countryLabels(countries as CountryRow[]);

/** Each city band is its own chunk, fetched the first time the zoom reaches it. */
const BAND_FILES: Record<CityBand, () => Promise<{ default: unknown }>> = {
  3: () => import('./labels/cities-3.json'),
  5: () => import('./labels/cities-5.json'),
  6: () => import('./labels/cities-6.json'),
};

const pending = new Map<CityBand, Promise<MapLabel[]>>();

export function loadCityBand(band: CityBand): Promise<MapLabel[]> {
  let p = pending.get(band);
  if (!p) {
    p = BAND_FILES[band]()
      .then((mod) => cityLabels(band, mod.default as CityRow[]))
      .catch((err: unknown) => {
        pending.delete(band);
        throw err;
      });
    pending.set(band, p);
  }
  return p;
}
