// @wayfarer/social's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { SocialEnv } from './config';
export { CONSUMERS } from './events/consumers';
export { createService, type SocialService, type SocialServiceOptions } from './service';
// the friends bench writes friends' trips as the trips consumer does
export { friendTrip } from './domain/trips';
export { SocialStore } from './store/social';
// the stats bench writes each destination's country as the trips consumer does, and times
// the figures' computation alone (issue 22)
export { destinationCountries, statsOf } from './domain/stats';
