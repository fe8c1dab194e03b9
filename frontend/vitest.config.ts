import { defineConfig } from 'vitest/config';

/**
 * Two projects:
 * - `unit`: `src/` test files, pure functions in Node;
 * - `component`: `test/component/**`, real components in headless Chromium (playwright-core,
 *   Debian's /usr/bin/chromium) on a test page of their own (the map harness), fed fixtures:
 *   no stack behind them. One file at a time (each builds and serves its page), with timeouts
 *   for a browser on a busy machine.
 * `vitest run --project unit` runs the fast half alone.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'component',
          include: ['test/component/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // a browser on a busy machine: expect.poll waits up to 30 s for a state (not 1 s)
          expect: { poll: { timeout: 30_000, interval: 50 } },
        },
      },
    ],
  },
});
