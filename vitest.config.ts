import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * expect.poll waits for what it asserts; its default of one second is a race with the clock on a
 * loaded machine, so it waits up to half a minute (a passing check returns as soon as it holds).
 */
const LOADED_MACHINE_POLL = { timeout: 30_000 };

/**
 * The browser files are the suite's longest (a minute or more each, against seconds for most
 * others): spread among the others, each runs beside other files from the start instead of all of
 * them at the end with a worker left idle. Within each project the order stays Vitest's own (failed,
 * then longest, first).
 */
class BrowserFilesSpread extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter((file) => file.project.name === 'browser');
    const others = sorted.filter((file) => file.project.name !== 'browser');
    if (browser.length === 0 || others.length === 0) return sorted;
    const step = others.length / browser.length;
    const spread: TestSpecification[] = [];
    browser.forEach((file, i) => {
      spread.push(file, ...others.slice(Math.round(i * step), Math.round((i + 1) * step)));
    });
    return spread;
  }
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The
    // files mostly wait (on servers, databases and browsers), so one per core keeps both busy.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: BrowserFilesSpread },
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
      {
        test: { name: 'shared', root: 'shared', include: ['test/**/*.test.ts'], isolate: false },
      },
      {
        test: {
          name: 'backend',
          root: 'backend',
          include: ['test/**/*.test.ts'],
          // A worker loads the server's modules once for all its files instead of once a file (2 to
          // 3 s each): every file starts its own servers, databases and Redis prefixes and stops
          // them, and no file mocks a module.
          isolate: false,
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
          // Each file starts its own server and browser: two run at once like any other files.
          expect: { poll: LOADED_MACHINE_POLL },
        },
      },
    ],
  },
});
