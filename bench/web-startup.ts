// What a phone's main thread does while each page starts, in figures that load distorts less than
// Lighthouse's score: the long tasks after the first paint and the kinds of work of the main thread,
// read from a Chromium performance trace of a first visit on slow 4G, with each task's CPU time
// (not its wall time, which other work on the machine stretches) taken 4 times over for a phone as
// Lighthouse's is, and the JavaScript the visit fetched.
//
// BENCH_WEB_BEFORE=<another built checkout> runs that checkout's server beside this one, on the
// same database, and alternates the two run by run: a before/after comparison under the same load.
// BENCH_WEB_SERVERS=now=<url>,before=<url> measures servers already running (and seeded) instead.
// BENCH_WEB_TRACES=<folder> keeps each run's trace (open it in Chromium's Performance panel).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { blocking, readMainThread, WORK_KINDS, type TraceEvent } from './lib/main-thread';
import { ROOT, SERVER_NODE_FLAGS, startChild, type Child } from './lib/processes';
import { printTable, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { percentile, round } from './lib/stats';
import { SEEDED, seedGame, seedLolgram } from './lib/web-seed';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/lib/chromium/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const ROUTES = (process.env.BENCH_WEB_ROUTES ?? '/,/play,/leaderboard,/lolgram').split(',');
const BEFORE = process.env.BENCH_WEB_BEFORE;
const SERVERS = process.env.BENCH_WEB_SERVERS;
const TRACES = process.env.BENCH_WEB_TRACES;
/** Lighthouse's phone (a Moto G Power) on its slow 4G. */
const PHONE = { width: 412, height: 823, deviceScaleFactor: 1.75 };
const CPU_SLOWDOWN = 4;
const SLOW_4G = { latency: 562.5, downloadThroughput: 184_320, uploadThroughput: 84_375 };
/**
 * The page is done starting once its main thread has had no task longer than 50 ms for this long
 * (Lighthouse's TTI window, on this machine's clock).
 */
const QUIET_MS = 5000;
const LONGEST_WAIT_MS = 60_000;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'toplevel',
  'loading',
  'blink.user_timing',
  '__metadata',
];

interface Figures {
  longTasks: number;
  longest: number;
  /** What the long tasks after the first paint hold above 50 ms each: TBT without its end. */
  blocking: number;
  firstPaint: number;
  work: Record<string, number>;
  mainThread: number;
  scripts: number;
  jsKb: number;
}

/** A first visit of `url` on the phone, traced; the page runs until its main thread is quiet. */
async function measure(browser: Browser, url: string, label: string): Promise<Figures> {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    deviceScaleFactor: PHONE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_4G });
    let jsBytes = 0;
    let scripts = 0;
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request === 'Script') {
        jsBytes += event.encodedDataLength;
        scripts += 1;
      }
    });
    const requests = new Map<string, string>();
    cdp.on('Network.responseReceived', (event) => requests.set(event.requestId, event.type));
    // A string: this file is typechecked without the DOM's types.
    await page.addInitScript({
      content: `globalThis.lastLongTask = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            globalThis.lastLongTask = Math.max(globalThis.lastLongTask, entry.startTime + entry.duration);
        }).observe({ type: 'longtask', buffered: true });`,
    });
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(url, { waitUntil: 'load', timeout: LONGEST_WAIT_MS });
    await page.waitForFunction(
      (quiet) =>
        performance.now() - (globalThis as unknown as { lastLongTask: number }).lastLongTask >=
        quiet,
      QUIET_MS,
      { timeout: LONGEST_WAIT_MS, polling: 500 },
    );
    const trace = await browser.stopTracing();
    if (TRACES) fs.writeFileSync(path.join(TRACES, `${label}.json`), trace);
    const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const thread = readMainThread(events, url);
    const long = blocking(thread, CPU_SLOWDOWN);
    const mainThread = Object.values(thread.work).reduce((sum, ms) => sum + ms, 0) * CPU_SLOWDOWN;
    return {
      longTasks: long.count,
      longest: long.longest,
      blocking: long.blockingMs,
      firstPaint: thread.firstContentfulPaint,
      work: Object.fromEntries(
        Object.entries(thread.work).map(([kind, ms]) => [kind, ms * CPU_SLOWDOWN]),
      ),
      mainThread,
      scripts,
      jsKb: jsBytes / 1000,
    };
  } finally {
    await context.close();
  }
}

/** Visits of a run whose trace holds no parsing of the page: seen now and then, never twice. */
const ATTEMPTS = 3;

/**
 * A visit measured again when its trace lacks the page's HTML parsing (which ended whole runs
 * twice, both times on the server of the build before): one lost trace costs that visit, not the
 * figures of every route so far.
 */
async function measureAgainIfUnparsed(
  browser: Browser,
  url: string,
  label: string,
): Promise<Figures> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await measure(browser, url, label);
    } catch (error) {
      const unparsed = error instanceof Error && error.message.startsWith('The trace holds no');
      if (!unparsed || attempt >= ATTEMPTS) throw error;
      console.warn(`${label}: ${error.message}; visiting again (${attempt + 1}/${ATTEMPTS})`);
    }
  }
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function startServer(root: string, databaseUrl: string, dataDir: string): Promise<Child> {
  return startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'backend/src/main.ts'],
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SIGNUPS_PER_HOUR: '1000',
    },
    root,
  );
}

async function compare(servers: [string, string][]) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  if (TRACES) fs.mkdirSync(TRACES, { recursive: true });
  const runs = new Map<string, Figures[]>();
  const loads: number[] = [];
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      for (const route of ROUTES) {
        // Alternated, so that a burst of other work on the machine does not fall on one build.
        const order = run % 2 === 1 ? servers : [...servers].reverse();
        for (const [build, url] of order) {
          loads.push(os.loadavg()[0]);
          const label = `${build}-${route === '/' ? 'home' : route.slice(1)}-${run}`;
          const figures = await measureAgainIfUnparsed(browser, `${url}${route}`, label);
          const key = `${route}, ${build}`;
          runs.set(key, [...(runs.get(key) ?? []), figures]);
          console.log(
            `run ${run}/${RUNS} ${key.padEnd(20)} long tasks ${figures.longTasks}, blocking ${Math.round(figures.blocking)} ms, longest ${Math.round(figures.longest)} ms, script ${Math.round(figures.work.script)} ms`,
          );
        }
      }
    }
  } finally {
    await browser.close();
  }

  const rows: Row[] = [...runs].map(([name, results]) => {
    const of = (pick: (f: Figures) => number) => median(results.map(pick));
    const work = Object.fromEntries(
      [...Object.keys(WORK_KINDS), 'other'].map((kind) => [
        `${kind} ms`,
        Math.round(of((f) => f.work[kind] ?? 0)),
      ]),
    );
    return {
      name,
      figures: {
        'blocking ms': Math.round(of((f) => f.blocking)),
        'long tasks': of((f) => f.longTasks),
        'longest ms': Math.round(of((f) => f.longest)),
        'main thread ms': Math.round(of((f) => f.mainThread)),
        ...work,
        'first paint ms': Math.round(of((f) => f.firstPaint)),
        scripts: of((f) => f.scripts),
        'JS KB over the wire': round(
          of((f) => f.jsKb),
          1,
        ),
        'blocking ms per run': results.map((f) => Math.round(f.blocking)).join(' '),
      },
    };
  });
  printTable(rows);
  console.log(
    `Median of ${RUNS} runs; 1-minute load average median ${round(median(loads), 1)}, highest ${round(Math.max(...loads), 1)} on ${os.cpus().length} cores.`,
  );
  const out = path.join(ROOT, 'bench/results/web-startup-latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ when: new Date().toISOString(), rows }, null, 2));
}

async function main() {
  if (SERVERS) {
    await compare(SERVERS.split(',').map((pair) => pair.split('=') as [string, string]));
    return;
  }
  const scratch = await scratchDatabase(DATABASE_URL);
  // Both servers share the data folder, where the seeded posts' images are.
  const dataDir = `/tmp/${scratch.name}`;
  const builds = new Map<string, Child>();
  try {
    builds.set('now', await startServer(ROOT, scratch.url, dataDir));
    if (BEFORE) builds.set('before', await startServer(path.resolve(BEFORE), scratch.url, dataDir));
    const first = builds.get('now')!;
    console.log(`seeding: ${SEEDED}`);
    await seedLolgram(first.url);
    await seedGame(first.url);

    await compare([...builds].map(([build, server]) => [build, server.url]));
  } finally {
    for (const server of builds.values()) await server.stop();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
