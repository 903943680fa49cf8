import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Lets `memory()` ask a server for its memory after a full collection (see memory-probe.cjs). */
export const MEMORY_PROBE_FLAGS = ['--expose-gc', '--require', './bench/memory-probe.cjs'];

/** Node's flags for servers, as `npm start` passes them (backend/package.json), for the ceiling too. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'];

export interface Child {
  url: string;
  child: ChildProcess;
  rssMb(): number;
  /** The process and its cluster workers (its child processes), read from /proc now. */
  pids(): number[];
  /**
   * Memory after a full collection, summed over the processes that hold connections (the cluster
   * workers, or the process itself without a cluster); needs MEMORY_PROBE_FLAGS.
   */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** CPU seconds the process and its workers have used (user + system), alive ones only. */
  cpuSeconds(): number;
  stop(): Promise<void>;
  /** kill -9 of the process and its workers: no shutdown of any kind. */
  kill(): Promise<void>;
}

/** CPU seconds (user + system) a process has used, from /proc; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The Node processes whose parent is `pid` (a cluster primary's workers; not esbuild's helper). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const node = stat.includes('(node)');
      if (node && Number(stat.split(') ')[1].split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** Starts a Node program and waits until it prints its URL ("... at http://host:port"). */
export async function startChild(
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // BENCH_SERVER_LOG=<file>: everything the program prints, for a run to look into.
  const log = process.env.BENCH_SERVER_LOG;
  if (log) {
    const file = fs.createWriteStream(log, { flags: 'a' });
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  }
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = / at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid ?? 0;
  const workers = () => childPids(pid);
  return {
    url,
    child,
    rssMb() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return kb / 1024;
    },
    pids: () => [pid, ...workers()],
    cpuSeconds() {
      return [pid, ...workers()].reduce((sum, p) => sum + cpuSecondsOf(p), 0);
    },
    memory() {
      const holders = workers();
      const targets = holders.length > 0 ? holders : [pid];
      return new Promise((resolve) => {
        const seen = new Map<number, NodeJS.MemoryUsage>();
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          for (const match of text.matchAll(/memory (\d+) (\{.*\})\n/g)) {
            seen.set(Number(match[1]), JSON.parse(match[2]) as NodeJS.MemoryUsage);
          }
          if (!targets.every((p) => seen.has(p))) return;
          child.stdout!.off('data', onData);
          const sum = (key: keyof NodeJS.MemoryUsage) =>
            targets.reduce((total, p) => total + (seen.get(p)?.[key] ?? 0), 0);
          resolve({
            rss: sum('rss'),
            heapTotal: sum('heapTotal'),
            heapUsed: sum('heapUsed'),
            external: sum('external'),
            arrayBuffers: sum('arrayBuffers'),
          });
        };
        child.stdout!.on('data', onData);
        for (const target of targets) process.kill(target, 'SIGUSR2');
      });
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      for (const worker of workers()) process.kill(worker, 'SIGKILL');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Starts the production backend (`backend/src/main.ts`) on a free port, logging warnings only,
 * its data under /tmp/<name>, with `env` on top (DATABASE_URL, REDIS_URL, limits lifted, ...).
 */
export function startBackend(
  name: string,
  env: Record<string, string>,
  nodeArgs: string[] = SERVER_NODE_FLAGS,
): Promise<Child> {
  return startChild([...nodeArgs, '--import', 'tsx', 'backend/src/main.ts'], {
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: `/tmp/${name}`,
    ...env,
  });
}
