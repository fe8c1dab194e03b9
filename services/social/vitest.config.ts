import { unitAndIntegrationConfig } from '@wayfarer/test-kit/vitest';

// integration: real PostgreSQL and Kafka, one file at a time
export default unitAndIntegrationConfig();
