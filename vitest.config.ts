import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * expect.poll waits for what it asserts; its default of one second is a race with the clock on a
 * loaded machine, so it waits up to half a minute (a passing check returns as soon as it holds).
 */
const LOADED_MACHINE_POLL = { timeout: 30_000 };

/** The projects in the order their files start: the longest and most waiting first. */
const PROJECT_ORDER = ['browser', 'backend', 'frontend', 'shared'];

/**
 * The files that took longest in a full run on a 2-core machine, four at a time (seconds, from
 * its JSON report; docs/PERFORMANCE.md), slowest first. They start before every other file,
 * whatever their project: a fresh clone has no durations recorded, and ordering by size started
 * the two layout files (short files whose checks live in layout-screens.ts) last, so that the run
 * waited five minutes on them at its end. A file missing here only starts in its project's turn.
 */
const SLOWEST = [
  'e2e/layout-phones.e2e.test.ts', // 299
  'e2e/layout-desktop.e2e.test.ts', // 272
  'e2e/lolgram.e2e.test.ts', // 253
  'e2e/comments.e2e.test.ts', // 177
  'e2e/friends.e2e.test.ts', // 174
  'e2e/settings.e2e.test.ts', // 164
  'backend/test/lolgram/notifications.test.ts', // 139
  'e2e/operators.e2e.test.ts', // 135
  'e2e/lolgram-edges.e2e.test.ts', // 124
  'e2e/kept-taps.e2e.test.ts', // 121
  'e2e/telegram.e2e.test.ts', // 108
  'e2e/seasons.e2e.test.ts', // 107
  'e2e/phone.e2e.test.ts', // 106
  'e2e/country.e2e.test.ts', // 103
  'e2e/notifications.e2e.test.ts', // 88
  'backend/test/game/season-rollover.test.ts', // 85
  'backend/test/lolgram/comments.test.ts', // 77
  'e2e/streak.e2e.test.ts', // 77
  'backend/test/core/cluster.test.ts', // 62
];

/**
 * Longest files first, so that the run ends on short files with every worker busy rather than on
 * one long file: the slowest files measured (SLOWEST), then the rest by project. Within a project
 * Vitest orders the files by their last duration, or on a fresh clone with none recorded (as in
 * CI) by their size; the projects are put in this order: the browser files first (up to three
 * minutes each, mostly waiting on pages and servers), then the backend's (servers and databases),
 * then the frontend's and the shared rules' (seconds each).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const slow = SLOWEST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      if (slow !== -1) return slow;
      const at = PROJECT_ORDER.indexOf(file.project.name);
      return SLOWEST.length + (at === -1 ? PROJECT_ORDER.length : at);
    };
    // A stable sort: each project keeps Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. Many
    // files spend much of their time waiting (on servers, databases, pages and clocks): two
    // workers a core keep the cores busy, and more only add contention (on 2 cores, 4 workers
    // ran the suite in 642 s, 6 in 677 s; see docs/PERFORMANCE.md).
    maxWorkers: availableParallelism() * 2,
    sequence: { sequencer: LongestFirst },
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
          // An embedded database's start took over a minute on a slow 2-core machine, four files
          // at once.
          hookTimeout: 180_000,
          expect: { poll: LOADED_MACHINE_POLL },
        },
      },
      'frontend/vitest.config.ts',
      {
        test: {
          name: 'browser',
          root: 'e2e',
          include: ['**/*.e2e.test.ts'],
          // The longest tests walk a dozen screens in several pages: on a slow 2-core machine, four
          // files at once, they took over two minutes.
          testTimeout: 240_000,
          hookTimeout: 180_000,
          // Each file starts its own server and browser; a worker loads the server's modules (and
          // Playwright) once for all its files, as the backend's do.
          isolate: false,
          expect: { poll: LOADED_MACHINE_POLL },
        },
      },
    ],
  },
});
