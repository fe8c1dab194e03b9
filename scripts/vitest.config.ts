import { defineConfig } from 'vitest/config';

/**
 * Tests of the scripts: the stack runner's restart policy (pure) and the runner itself with real
 * processes (a gateway and auth of their own, namespace `restart`, against the local infra); the
 * image build's choice of npm packages (build/, on a made-up tree).
 * Run from this folder: ../node_modules/.bin/vitest run
 */
export default defineConfig({
  test: {
    include: ['stack/**/*.test.ts', 'build/**/*.test.ts'],
    globalSetup: ['@wayfarer/test-kit/global-setup'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
