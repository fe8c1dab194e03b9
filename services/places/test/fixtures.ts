import type { City } from '../src/domain/city';

let nextId = 1;
function city(name: string, country: string, population: number, id = nextId++): City {
  return { id, name, country, latitude: 10 + id / 100, longitude: 20 + id / 100, population };
}

/** A small hand-made city list (populations roughly real, ids made up). */
export const CITIES: City[] = [
  city('Paris', 'FR', 2_138_551, 100),
  city('Paris', 'US', 24_782, 101),
  city('Parisot', 'FR', 500, 102),
  city('Cormeilles-en-Parisis', 'FR', 21_973, 103),
  city('São Paulo', 'BR', 10_021_295, 110),
  city('São Luís', 'BR', 917_237, 111),
  city('Paulo Afonso', 'BR', 85_350, 112),
  city('Zürich', 'CH', 341_730, 120),
  city('Zurich', 'NL', 1_100, 121),
  city('New York City', 'US', 8_175_133, 130),
  city('York', 'GB', 153_717, 131),
  city('New Yekepa', 'LR', 24_695, 132),
  city('Newark', 'US', 281_944, 133),
  city('Tokyo', 'JP', 8_336_599, 140),
  city('Saint-Étienne', 'FR', 171_483, 150),
  city('Łódź', 'PL', 768_755, 151),
  city("N'Djamena", 'TD', 721_081, 152),
  city('London', 'GB', 7_556_900, 160),
  city('London', 'CA', 346_765, 161),
  city('East London', 'ZA', 267_007, 162),
  city('Londrina', 'BR', 506_701, 163),
  city('Washington, D.C.', 'US', 601_723, 170),
  city('Springfield', 'US', 1_000, 181),
  city('Springdale', 'US', 1_000, 182),
  city('Springfield', 'US', 1_000, 180),
  city('Munich', 'DE', 1_260_391, 190),
  city('Garching bei München', 'DE', 15_303, 191),
];
