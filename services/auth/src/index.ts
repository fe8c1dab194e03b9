// @wayfarer/auth's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { AuthEnv } from './config';
export { createService, type AuthService, type AuthServiceOptions } from './service';
