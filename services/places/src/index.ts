// @wayfarer/places's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
// What only the benches need is in `@wayfarer/places/bench` (src/bench.ts).
export { PlacesEnv } from './config';
export { createService, type PlacesService, type PlacesServiceOptions } from './service';
export type { City } from './domain/city';
export { loadCities } from './store/cities';
