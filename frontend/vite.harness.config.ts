import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The test harness: separate Vite entries that mount real components with fixtures: the map
 * (`harness/map.html`) and the public page of a share link (`harness/shared.html`).
 * Never part of the production build (`vite.config.ts`); built to `harness/dist` and served by
 * `vite preview --config vite.harness.config.ts` in the component tests (test/component/).
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./harness'),
  publicDir: here('./public'),
  plugins: [react()],
  build: {
    outDir: here('./harness/dist'),
    emptyOutDir: true,
    // MapLibre alone is ~1.1 MB minified; it is the lazy keyless-map chunk.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: { map: here('./harness/map.html'), shared: here('./harness/shared.html') },
    },
  },
  preview: { host: '127.0.0.1', strictPort: true },
});
