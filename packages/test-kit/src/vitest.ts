import { defineConfig } from 'vitest/config';

/**
 * The vitest config of a workspace with two projects:
 * - `unit`: `test/unit/**`, pure, no servers;
 * - `integration`: `test/integration/**`, real servers (env, deploy/local or containers, through
 *   test-kit's global setup), one file at a time because the files share those servers (and
 *   some stop and start them), with timeouts for real I/O.
 * `vitest run --project unit` runs the fast half alone.
 */
export function unitAndIntegrationConfig() {
  return defineConfig({
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
            globalSetup: ['@wayfarer/test-kit/global-setup'],
            fileParallelism: false,
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  });
}
