import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BACKEND_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it has printed so far, on standard output and error. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills it at once (SIGKILL, kill -9: nothing is finished) and resolves when it is gone. */
  kill(): Promise<void>;
}

/**
 * Starts the backend as its own Node process, as ops would, and waits for its URL. `preload`:
 * modules of test-support loaded before the app (`stall-queries.ts`).
 */
export async function spawnServer(
  env: Record<string, string>,
  { preload = [] }: { preload?: string[] } = {},
): Promise<ServerProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-proc-'));
  const imports = preload.flatMap((name) => [
    '--import',
    fileURLToPath(new URL(name, import.meta.url)),
  ]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...imports, 'src/main.ts'], {
    cwd: BACKEND_DIR,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // As `npm start` and the Docker image run it.
      MALLOC_ARENA_MAX: '2',
      // A test machine shared with other work lags now and then: the tests of admission set these.
      ADMIT_EVENT_LOOP_LAG_MS: '60000',
      ADMIT_TAP_WAIT_MS: '600000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // The embedded database's first start (its initdb) takes over a minute on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    url,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
      return code;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port free now, for two servers to serve one after the other (a restart on the same address). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
