// The query and answer schemas are shared with the frontend: they live in contracts.
export { PlacesQuery, PlacesResponse, PlaceSearchLimits } from '@wayfarer/contracts';
