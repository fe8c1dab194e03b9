// @wayfarer/places's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { PlacesEnv } from './config';
export { createService, type PlacesService, type PlacesServiceOptions } from './service';
// the search bench measures the index against a linear scan, and the HTTP app over a built index
export { buildApp, type PlacesDeps } from './app';
export type { City } from './domain/city';
export { LinearSearch } from './domain/linear-search';
export { normalise } from './domain/normalise';
export { buildPlaceIndex, type PlaceIndex } from './domain/place-index';
export { loadCities } from './store/cities';
