import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Lets `memory()` ask a server for its memory after a full collection (see memory-probe.cjs). */
export const MEMORY_PROBE_FLAGS = ['--expose-gc', '--require', './bench/memory-probe.cjs'];

/** Node's flags for servers, as `npm start` passes them (backend/package.json), for the ceiling too. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

export interface Child {
  url: string;
  child: ChildProcess;
  rssMb(): number;
  /** After a full collection; needs the server started with MEMORY_PROBE_FLAGS. */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** CPU seconds the process has used (user + system). */
  cpuSeconds(): number;
  stop(): Promise<void>;
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
  return {
    url,
    child,
    rssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return kb / 1024;
    },
    cpuSeconds() {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime, in clock ticks (100 a second on Linux).
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    memory() {
      return new Promise((resolve) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          const match = /memory (\{.*\})\n/.exec(text);
          if (!match) return;
          child.stdout!.off('data', onData);
          resolve(JSON.parse(match[1]) as NodeJS.MemoryUsage);
        };
        child.stdout!.on('data', onData);
        child.kill('SIGUSR2');
      });
    },
    async stop() {
      child.kill('SIGTERM');
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
