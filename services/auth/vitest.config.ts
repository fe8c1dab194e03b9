import { unitAndIntegrationConfig } from '@wayfarer/test-kit/vitest';

// integration: real PostgreSQL, Redis, MinIO and Kafka, one file at a time
// (kafka-down.test.ts stops and restarts Kafka).
export default unitAndIntegrationConfig();
