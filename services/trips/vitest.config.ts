import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Real MongoDB-wire server (FerretDB here), MinIO and Kafka: from env, deploy/local,
          // or containers.
          globalSetup: ['@wayfarer/test-kit/global-setup'],
          // The files share real servers: one file at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
