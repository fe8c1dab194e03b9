// @wayfarer/places/bench: what the benches use besides the public entry, and nothing else
// should. The search bench measures the index against a linear scan, and the HTTP app over an
// index it built itself.

export { buildApp, type PlacesDeps } from './app';
export { LinearSearch } from './domain/linear-search';
export { normalise } from './domain/normalise';
export { buildPlaceIndex, type PlaceIndex } from './domain/place-index';
