import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The full-dataset tests build the real index once per file (well under a second).
    hookTimeout: 30_000,
  },
});
