import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

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
    await fs.mkdir(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await fs.readFile(file, 'utf8')).trim();
  }
}
