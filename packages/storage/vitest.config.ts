import { unitAndIntegrationConfig } from '@wayfarer/test-kit/vitest';

// unit: sniffImage; integration: ObjectStore against real MinIO.
export default unitAndIntegrationConfig();
