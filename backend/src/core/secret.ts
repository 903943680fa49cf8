import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

/**
 * The configured SESSION_SECRET, or one generated once and kept under DATA_DIR so that a
 * zero-configuration start keeps its signed cookies valid across restarts.
 */
export async function resolveSessionSecret(configured: string | undefined, dataDir: string) {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    await fs.mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const secret = randomBytes(32).toString('hex');
    await fs
      .writeFile(file, secret, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
      .catch(async () => undefined);
    return (await fs.readFile(file, 'utf8')).trim();
  }
}
