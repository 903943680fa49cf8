import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { countryFlags } from './country-flags';
import { prerender } from './prerender';
import { pwa } from './pwa';

const backend = 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    countryFlags(),
    // The browser build only: the server build (of the prerendered pages) is not served.
    ...(isSsrBuild
      ? []
      : [
          prerender(),
          pwa(),
          // Brotli and gzip copies of every text asset, made once at build time and served as they are.
          compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
        ]),
  ],
  resolve: {
    // zod, wherever a chunk uses it, comes configured for browsers (see zod-browser.ts).
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('./src/lib/zod-browser.ts', import.meta.url)),
      },
    ],
  },
  server: {
    proxy: {
      '/api': backend,
      '/healthz': backend,
      '/readyz': backend,
      '/socket.io': { target: backend, ws: true },
    },
  },
  // The manifest names each chunk's source: the browser tests check which chunks a page loads.
  build: { outDir: 'dist', sourcemap: false, manifest: true },
}));
