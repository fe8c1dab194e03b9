import { unitAndIntegrationConfig } from '@wayfarer/test-kit/vitest';

// integration: the real MongoDB-wire server and Kafka, one file at a time.
export default unitAndIntegrationConfig();
