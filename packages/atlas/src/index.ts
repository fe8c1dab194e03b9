/**
 * @wayfarer/atlas: which country a point is in (offline, world-atlas's outlines), continents,
 * and a traveller's figures from their trips. Pure but for reading the bundled
 * outlines at first use.
 */
export {
  ATLAS_RESOLUTION,
  type Atlas,
  type Country,
  countryAt,
  createAtlas,
  defaultAtlas,
  loadTopology,
  type Resolution,
} from './atlas';
export { CONTINENTS, type Continent, continentOf } from './continents';
export { countryName, WORLD_COUNTRIES } from './countries';
export { EARTH_RADIUS_KM, haversineKm } from './geo';
export { type AtlasData, COAST_KM, type CountryHit } from './lookup';
export { ContinentCount, CountryRef, TravelStats, VisitedCountry } from './schema';
export {
  distinctDays,
  pathKm,
  sharedCountries,
  type StatsDestination,
  type StatsTrip,
  travelStats,
} from './stats';
