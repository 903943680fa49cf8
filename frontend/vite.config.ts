import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const backend = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Brotli and gzip copies of every text asset, made once at build time and served as they are.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  server: {
    proxy: {
      '/api': backend,
      '/healthz': backend,
      '/readyz': backend,
      '/socket.io': { target: backend, ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false },
});
