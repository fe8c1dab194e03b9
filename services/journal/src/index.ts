// @wayfarer/journal's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { JournalEnv } from './config';
export { CONSUMERS } from './events/consumers';
export { createService, type JournalService, type JournalServiceOptions } from './service';
