// @wayfarer/chat's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { ChatEnv } from './config';
export { CONSUMERS } from './events/consumers';
export { createService, type ChatService, type ChatServiceOptions } from './service';
