import { defineConfig } from 'vitest/config';

// Static checks of the deployment files (docker-compose.yml, Dockerfile, deploy/local).
// Run from this folder: ../node_modules/.bin/vitest run
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
  },
});
