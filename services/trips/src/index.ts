// @wayfarer/trips's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import (the benches' seeding: `@wayfarer/trips/bench`, src/bench.ts). The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { TripsEnv } from './config';
export {
  CONSUMERS,
  ERASURE_CONSUMER,
  FRIENDSHIP_CONSUMER,
  JOURNAL_STORIES_CONSUMER,
} from './events/consumers';
export { createService, type TripsService, type TripsServiceOptions } from './service';
