import fs from 'node:fs';
import path from 'node:path';

/** The parts of a V8 .cpuprofile (what `node --cpu-prof` writes) that a summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of the monotonic clock, in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  from: number;
  to: number;
}

/** Microseconds now on the clock V8's profiler stamps its samples with (CLOCK_MONOTONIC). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Where a frame's code comes from: a package, Node itself, the app, or V8's own bookkeeping. */
function origin(functionName: string, url: string): string {
  if (SPECIAL.has(functionName) && !url) return functionName;
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node (core)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const app = /\/(backend|shared)\/src\//.exec(url);
  return app ? `${app[1]} (app)` : url;
}

function shortUrl(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?.*)$/.exec(url);
  if (pkg) return pkg[1];
  const app = /\/((?:backend|shared)\/src\/.*)$/.exec(url);
  return app ? app[1] : url.replace(/^file:\/\//, '');
}

export interface ProfileSummary {
  /** Samples in the windows, and those in which the process was not idle. */
  samples: number;
  busySamples: number;
  /** Milliseconds of busy time in the windows. */
  busyMs: number;
  /** Functions by self time, as a share of busy time. */
  functions: { name: string; where: string; origin: string; selfMs: number; percent: number }[];
  /** The same, added up by where the code comes from. */
  origins: { origin: string; selfMs: number; percent: number }[];
}

/**
 * Self time by function over every profile in `files` (a cluster's workers add up), counting only
 * the samples inside `windows` (every sample when none is given).
 */
export function summarizeProfiles(
  files: string[],
  windows: Window[] = [],
  top = 25,
): ProfileSummary {
  const byFunction = new Map<string, { name: string; where: string; origin: string; us: number }>();
  let samples = 0;
  let busySamples = 0;
  let busyUs = 0;
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i += 1) {
      at += profile.timeDeltas[i] ?? 0;
      // A sample lasts until the next one.
      const lasts = profile.timeDeltas[i + 1] ?? 0;
      if (windows.length > 0 && !windows.some((w) => at >= w.from && at <= w.to)) continue;
      samples += 1;
      const frame = nodes.get(profile.samples[i]);
      if (!frame || frame.functionName === '(idle)') continue;
      busySamples += 1;
      busyUs += lasts;
      const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
      const key = `${frame.functionName}@${where}`;
      const entry = byFunction.get(key) ?? {
        name: frame.functionName || '(anonymous)',
        where,
        origin: origin(frame.functionName, frame.url),
        us: 0,
      };
      entry.us += lasts;
      byFunction.set(key, entry);
    }
  }
  const percent = (us: number) => Math.round((us / Math.max(1, busyUs)) * 1000) / 10;
  const byOrigin = new Map<string, number>();
  for (const entry of byFunction.values()) {
    byOrigin.set(entry.origin, (byOrigin.get(entry.origin) ?? 0) + entry.us);
  }
  return {
    samples,
    busySamples,
    busyMs: Math.round(busyUs / 1000),
    functions: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map(({ us, ...f }) => ({ ...f, selfMs: Math.round(us / 1000), percent: percent(us) })),
    origins: [...byOrigin]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ origin: name, selfMs: Math.round(us / 1000), percent: percent(us) })),
  };
}

/** The .cpuprofile files under `dir`. */
export function profileFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f));
}

export function printProfile(summary: ProfileSummary): void {
  console.log(
    `busy ${summary.busyMs} ms in ${summary.busySamples} of ${summary.samples} samples (the rest idle)`,
  );
  console.log('\nself time by origin:');
  for (const o of summary.origins.slice(0, 15)) {
    console.log(`  ${String(o.percent).padStart(5)} %  ${o.origin}`);
  }
  console.log('\nself time by function:');
  for (const f of summary.functions) {
    console.log(`  ${String(f.percent).padStart(5)} %  ${f.name}  ${f.where}`);
  }
}
