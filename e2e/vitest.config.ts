import { defineConfig } from 'vitest/config';

/**
 * Browser journeys against a whole stack (gateway + services + built frontend) started once
 * by the global setup on its own ports and databases, so it never touches a dev stack.
 */
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['@wayfarer/test-kit/global-setup', './support/stack-setup.ts'],
    fileParallelism: false,
    // A browser on a busy 2-core CI machine can miss a frame; one retry there, none locally,
    // so a real failure still fails (it fails twice) and a flake is visible in the log.
    retry: process.env.CI ? 1 : 0,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits on observable state: up to 15 s (vitest's 1 s default was missed by a
    // CSS transition on a machine at load 20), passing as soon as the state holds
    expect: { poll: { timeout: 15_000, interval: 50 } },
  },
});
