// @wayfarer/social's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
// What only the benches need is in the `./bench` entry (src/bench.ts).
export { SocialEnv } from './config';
export { CONSUMERS } from './events/consumers';
export { createService, type SocialService, type SocialServiceOptions } from './service';
