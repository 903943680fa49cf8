import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files';

/**
 * Who holds a lock: a pid alone is not enough, because after a crash the system may give the same
 * pid to another program. The process's start time (which a reused pid does not share) makes the
 * pair unique for as long as the machine runs.
 */
export interface LockHolder {
  pid: number;
  started: string;
}

/** The start time of a live process, or null when there is no such process. */
export function processStartTime(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      // Field 22 of /proc/<pid>/stat, in clock ticks since boot. The command name (field 2) may
      // hold spaces and parentheses, so fields are counted after its last closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    } catch {
      return null;
    }
  }
  try {
    // Elsewhere (macOS, the BSDs): ps names the start time of a live pid and fails for a dead one.
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return started || null;
  } catch {
    return null;
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.started === 'string') {
      return { pid: value.pid, started: value.started };
    }
  } catch {
    // Not ours, or cut short by a crash while writing: nobody holds it.
  }
  return null;
}

/** True when the holder named in a lock file is still the process that wrote it. */
function isHeld(holder: LockHolder | null): holder is LockHolder {
  return holder !== null && processStartTime(holder.pid) === holder.started;
}

export function currentHolder(): LockHolder {
  const started = processStartTime(process.pid);
  if (started === null) throw new Error('Cannot read this process start time');
  return { pid: process.pid, started };
}

/**
 * Takes `dir`'s lock for this process, or throws naming the live process that holds it. A lock
 * left by a process that has died (even if its pid now belongs to another program) is taken over.
 * Answers the release function.
 */
export async function lockDirectory(
  dir: string,
  describeHolder: (pid: number) => string,
): Promise<() => Promise<void>> {
  const lockPath = path.join(dir, 'tapgram.lock');
  const me = JSON.stringify(currentHolder());
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await fs.writeFile(lockPath, me, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return () => fs.rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = parseHolder(await fs.readFile(lockPath, 'utf8').catch(() => ''));
      if (isHeld(holder)) throw new Error(describeHolder(holder.pid));
      await fs.rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
