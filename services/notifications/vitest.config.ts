import { unitAndIntegrationConfig } from '@wayfarer/test-kit/vitest';

// integration: real PostgreSQL, Kafka and Redis (and a real chat instance for the push), one
// file at a time
export default unitAndIntegrationConfig();
