// @wayfarer/bucketlist's public entry (package.json `exports`): what bench/, e2e/ and other workspaces
// may import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { BucketListEnv } from './config';
export { createService, type BucketListService, type BucketListServiceOptions } from './service';
