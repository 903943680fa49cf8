import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { countryFlags } from './country-flags';

export default defineProject({
  plugins: [react(), countryFlags()],
  test: {
    name: 'frontend',
    root: __dirname,
    environment: 'happy-dom',
    // Threads start faster than processes, and nothing here needs a process of its own.
    pool: 'threads',
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
