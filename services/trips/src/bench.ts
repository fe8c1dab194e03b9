// @wayfarer/trips/bench (package.json `exports`): for the trips benches ONLY, which seed stored
// trips (documents and their list summaries) straight into MongoDB rather than through the API.
// Not a public surface: services, e2e and the frontend use `@wayfarer/trips` (src/index.ts).
import { tripSummaryJson, type TripDoc } from './domain/trip';
import { SUMMARY_VERSION } from './store/trips';

export { newId, newPhotoId, newTripDoc, type PhotoDoc, type TripDoc } from './domain/trip';
export { SUMMARY_VERSION, tripSummaryJson };

/** `trip` as the service's insert stores it (`TripsStore.insert`): with its list summary. */
export function storedTrip(trip: TripDoc): TripDoc & Record<string, unknown> {
  return { ...trip, summaryJson: tripSummaryJson(trip), summaryVersion: SUMMARY_VERSION, rev: 0 };
}
