import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'backend',
          root: 'backend',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
        },
      },
    ],
  },
});
