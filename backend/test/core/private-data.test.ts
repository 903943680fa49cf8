import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../../test-support/process';
import { migratedEmbeddedDataDir } from '../../test-support/services';
import { makeAccount, makeJpeg, makePost } from '../lolgram/builders';

/** Every entry under `root` (itself included), with its permission bits. */
async function modesUnder(root: string): Promise<Map<string, number>> {
  const modes = new Map<string, number>();
  const visit = async (entry: string) => {
    const stat = await fs.lstat(entry);
    modes.set(path.relative(root, entry) || '.', stat.mode & 0o777);
    if (stat.isDirectory()) {
      for (const name of await fs.readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(root);
  return modes;
}

/** The entries the group or others may read, write or enter, as `path mode`. */
async function openToOthers(root: string): Promise<string[]> {
  return [...(await modesUnder(root))]
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([entry, mode]) => `${entry} ${mode.toString(8)}`);
}

/**
 * The server on the embedded database, as `npm start` runs it with nothing configured, on
 * `dataDir`; it signs up, posts an image and sets an avatar, then stops. Answers its output.
 */
async function useServer(dataDir: string, env: Record<string, string> = {}): Promise<string> {
  const server = await spawnServer({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    SESSION_SECRET: '',
    MODERATION_IMAGE_CHECK: 'off',
    ...env,
  });
  try {
    const account = await makeAccount(server.url);
    expect((await makePost(account, await makeJpeg())).status).toBe(201);
    const avatar = await account.agent
      .put(`/api/lolgram/users/${account.user.id}/avatar`)
      .attach('avatar', await makeJpeg({ width: 200, height: 200 }), 'me.jpg');
    expect(avatar.status).toBe(200);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  return server.output();
}

describe('DATA_DIR is readable by the server’s user only', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-private-'));
  });
  afterAll(async () => {
    await fs.rm(parent, { recursive: true, force: true });
  });

  it('keeps the embedded database, the images and the session secret at 0700 and 0600 from a fresh start', async () => {
    const dataDir = path.join(parent, 'fresh');
    await useServer(dataDir);
    const entries = [...(await modesUnder(dataDir)).keys()];
    // What the server wrote there: the database (its write-ahead log too), images, the secret.
    expect(entries).toEqual(
      expect.arrayContaining(['pgdata/PG_VERSION', 'session-secret', 'images/posts']),
    );
    expect(entries.some((entry) => entry.startsWith('pgdata/pg_wal/0'))).toBe(true);
    expect(entries.some((entry) => /^images\/avatars\/.+\.webp$/.test(entry))).toBe(true);
    expect(await openToOthers(dataDir)).toEqual([]);
  });

  it('takes back at start what an older version left readable by others, and says how many', async () => {
    // Its first start is the other test's: this one starts from a database already made.
    const dataDir = await migratedEmbeddedDataDir(path.join(parent, 'older'));
    await useServer(dataDir);
    // As an older version left them: directories 0755, files 0644 (the database's 0666).
    const older = await modesUnder(dataDir);
    for (const entry of older.keys()) {
      const full = path.join(dataDir, entry);
      const isDirectory = (await fs.lstat(full)).isDirectory();
      await fs.chmod(full, isDirectory ? 0o755 : entry.startsWith('pgdata') ? 0o666 : 0o644);
    }
    expect(older.size).toBeGreaterThan(100);
    expect(await openToOthers(dataDir)).toHaveLength(older.size);

    const output = await useServer(dataDir, { LOG_LEVEL: 'info' });
    const told = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; changed?: number })
      .filter((line) => line.msg?.includes('DATA_DIR made readable by this user only'));
    expect(told).toHaveLength(1);
    expect(told[0].changed).toBe(older.size);
    expect(await openToOthers(dataDir)).toEqual([]);
  });
});
