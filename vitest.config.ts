import { defineConfig } from 'vitest/config';

/**
 * expect.poll waits for what it asserts; its default of one second is a race with the clock on a
 * loaded machine, so it waits up to half a minute (a passing check returns as soon as it holds).
 */
const LOADED_MACHINE_POLL = { timeout: 30_000 };

export default defineConfig({
  test: {
    // `npm run test:coverage`: line coverage of the code the suites run in Node (the browser's
    // share of the frontend runs in Chromium and is not counted).
    coverage: {
      provider: 'v8',
      include: ['backend/src/**', 'shared/src/**', 'frontend/src/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      reportOnFailure: true,
    },
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'backend',
          root: 'backend',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: LOADED_MACHINE_POLL },
        },
      },
      'frontend/vitest.config.ts',
      {
        test: {
          name: 'browser',
          root: 'e2e',
          include: ['**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          expect: { poll: LOADED_MACHINE_POLL },
        },
      },
    ],
  },
});
