// @wayfarer/trips's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { TripsEnv } from './config';
export {
  CONSUMERS,
  ERASURE_CONSUMER,
  FRIENDSHIP_CONSUMER,
  JOURNAL_STORIES_CONSUMER,
} from './events/consumers';
export { createService, type TripsService, type TripsServiceOptions } from './service';
// the trips benches seed stored trips (documents and their list summaries) directly
export { newId, newPhotoId, newTripDoc, tripSummaryJson, type PhotoDoc } from './domain/trip';
export { SUMMARY_VERSION } from './store/trips';
