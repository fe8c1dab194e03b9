import { defineConfig, loadEnv, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { lightBasemap } from './build/basemap';
import { precompress } from './build/precompress';

// The browser only ever talks to the gateway. In development (and `vite preview`) the
// dev server forwards `/api` and the socket.io endpoint to it; VITE_API_PROXY overrides
// the default address. The value is read here, in Node, and never reaches the bundle.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const target = process.env.VITE_API_PROXY ?? env.VITE_API_PROXY ?? 'http://127.0.0.1:8080';

  const proxy: Record<string, ProxyOptions> = {
    '/api': { target, changeOrigin: true },
    '/socket.io': { target, changeOrigin: true, ws: true },
  };

  return {
    // brotli and gzip twins of every text asset, served by the gateway as Accept-Encoding asks
    plugins: [react(), lightBasemap(), precompress()],
    server: { proxy },
    preview: { proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      assetsDir: 'static',
      // The keyless map's lazy chunk is MapLibre GL (~1.1 MB minified, ~300 kB gzipped); it
      // loads only where the map is shown. Everything else stays far below this.
      chunkSizeWarningLimit: 1200,
      rolldownOptions: {
        output: {
          // application code is loaded in lazy chunks from a static/js path
          entryFileNames: 'static/js/[name]-[hash].js',
          chunkFileNames: 'static/js/[name]-[hash].js',
          assetFileNames: 'static/media/[name]-[hash][extname]',
        },
      },
    },
  };
});
