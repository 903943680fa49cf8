import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from './logger';

/**
 * What the server keeps under DATA_DIR is for its own user only: the embedded database (its
 * write-ahead log holds the password hashes), the images of posts not yet public, the session
 * secret. Directories 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The group's and others' permission bits. */
const SHARED_BITS = 0o077;

/**
 * Files and directories this process creates are for its user alone, whatever mode the code or a
 * library asks for. Set once, first thing, by the server and the command-line programs.
 */
export function keepNewFilesPrivate(): void {
  process.umask(SHARED_BITS);
}

export interface Restricted {
  /** Entries whose group or others' permissions were taken away. */
  changed: number;
  /** Entries this user may not change (owned by another): the first few. */
  refused: string[];
}

/**
 * Takes the group's and others' permissions away from `root` and everything under it, keeping the
 * owner's; symbolic links are left as they are, and not followed.
 */
export async function restrictToOwner(root: string): Promise<Restricted> {
  const result: Restricted = { changed: 0, refused: [] };
  const visit = async (entry: string): Promise<void> => {
    let stat;
    try {
      stat = await fs.lstat(entry);
    } catch (error) {
      // Removed meanwhile (a temporary file): nothing left to protect.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & SHARED_BITS) !== 0) {
      try {
        await fs.chmod(entry, stat.mode & 0o700);
        result.changed += 1;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EPERM' && code !== 'ENOENT') throw error;
        if (code === 'EPERM' && result.refused.length < 5) result.refused.push(entry);
      }
    }
    if (stat.isDirectory()) {
      for (const name of await fs.readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(root);
  return result;
}

/**
 * Creates DATA_DIR for this user only, or takes back what an older version (or PGlite, which
 * ignores the umask) left open to the group or others under it; says once how many it changed.
 */
export async function openPrivateDataDir(dataDir: string, logger: Logger): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { changed, refused } = await restrictToOwner(dataDir);
  if (changed > 0) {
    logger.info(
      { dataDir, changed },
      'files and directories under DATA_DIR made readable by this user only',
    );
  }
  if (refused.length > 0) {
    logger.warn(
      { dataDir, refused },
      'files under DATA_DIR owned by another user stay readable by others: change their owner',
    );
  }
}
