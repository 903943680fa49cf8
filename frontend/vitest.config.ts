import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { countryFlags } from './country-flags';

export default defineProject({
  plugins: [react(), countryFlags()],
  resolve: {
    alias: {
      // Its CommonJS build requires react-router's ES module, which a VM context cannot load.
      'react-router-dom': fileURLToPath(
        new URL('../node_modules/react-router-dom/dist/index.mjs', import.meta.url),
      ),
    },
  },
  test: {
    name: 'frontend',
    root: __dirname,
    environment: 'happy-dom',
    // Each file in a fresh VM context of a worker thread that is kept: isolated as before (module
    // state, mocks, the DOM), without a worker and its environment built again for every file.
    // The project took 41 s (78 s CPU) instead of 83 s (156 s) in isolated threads. Errors thrown
    // by Node's own modules come from another realm (`instanceof Error` is false for them).
    pool: 'vmThreads',
    // Waits end as soon as what they wait for holds; the margin is for a loaded machine.
    testTimeout: 30_000,
    expect: { poll: { timeout: 30_000 } },
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: [
      'test/setup/timers.ts',
      'test/setup/toasts.ts',
      'test/setup/matchers.ts',
      'test/setup/answers.ts',
      'test/setup/live.ts',
    ],
  },
});
