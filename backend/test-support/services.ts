import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openEmbeddedDatabase } from '../src/core/embedded-db';
import { createLogger } from '../src/core/logger';
import { MIGRATIONS_DIR, runMigrations } from '../src/core/migrate';

/** The local test Postgres (docs/ARCHITECTURE.md, Development); integration tests make a fresh database in it per file. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

export async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 2000,
  });
  const ok = await answers(async () => {
    await client.connect();
    await client.query('SELECT 1');
  });
  await client.end().catch(() => undefined);
  return ok;
}

export async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  const ok = await answers(async () => {
    await redis.connect();
    await redis.ping();
  });
  redis.disconnect();
  return ok;
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

function testDatabaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The migrations as they are now: a template made from other migrations is another template. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    hash
      .update(name)
      .update('\0')
      .update(fs.readFileSync(path.join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

/**
 * A database with every migration applied, which scratch databases are copied from: a copy takes
 * a fraction of the time the migrations take. Made once per set of migrations, by whichever test
 * process asks first (the others wait on an advisory lock), under a temporary name until it is
 * complete; nothing connects to it afterwards, as a template requires.
 */
function migratedTemplate(): Promise<string> {
  template ??= withAdmin(async (admin) => {
    const name = `tapgram_template_${migrationsFingerprint()}`;
    await admin.query(`SELECT pg_advisory_lock(hashtext('tapgram_template'))`);
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = uniqueName('tapgram_template_building');
        await admin.query(`CREATE DATABASE ${building}`);
        const pool = new pg.Pool({ connectionString: testDatabaseUrl(building), max: 1 });
        try {
          await runMigrations(pool, createLogger('silent'));
        } finally {
          await pool.end();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(hashtext('tapgram_template'))`);
    }
  });
  return template;
}

/**
 * Creates a database beside the test one and answers its URL and a way to drop it: empty, or with
 * every migration already applied (`migrated`), as a server would leave it at its first start.
 */
export async function createScratchDatabase({ migrated = false } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = uniqueName('tapgram_test');
  const from = migrated ? ` TEMPLATE ${await migratedTemplate()}` : '';
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}${from}`));
  return {
    url: testDatabaseUrl(name),
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

let embeddedTemplate: Promise<string> | undefined;

/**
 * The embedded database's files with every migration applied, which data directories are copied
 * from: its first start (PGlite's initdb) takes a quarter of a minute on a loaded machine, a copy
 * a fraction of a second. Made once per set of migrations in the temporary directory, under a
 * temporary name until it is complete (a test process that loses the race drops its own).
 */
function migratedEmbeddedTemplate(): Promise<string> {
  embeddedTemplate ??= (async () => {
    // PGlite's version too (pinned exactly): another version may not read these files.
    const pglite = (
      JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['@electric-sql/pglite'];
    const template = path.join(
      os.tmpdir(),
      `tapgram-embedded-template-${pglite}-${migrationsFingerprint()}`,
    );
    if (fs.existsSync(template)) return template;
    const building = await fs.promises.mkdtemp(
      path.join(os.tmpdir(), 'tapgram-embedded-building-'),
    );
    try {
      const logger = createLogger('silent');
      const db = await openEmbeddedDatabase(building, logger);
      try {
        await runMigrations(db.pool, logger);
      } finally {
        await db.close();
      }
      await fs.promises.rename(path.join(building, 'pgdata'), template).catch((error: unknown) => {
        if (!fs.existsSync(template)) throw error;
      });
    } finally {
      await fs.promises.rm(building, { recursive: true, force: true });
    }
    return template;
  })();
  return embeddedTemplate;
}

/**
 * A data directory (`dataDir`, or a new one) whose embedded database has every migration applied,
 * as a server leaves it at its first start; for tests of something other than that first start.
 */
export async function migratedEmbeddedDataDir(dataDir?: string): Promise<string> {
  const dir = dataDir ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tapgram-embedded-')));
  await fs.promises.cp(await migratedEmbeddedTemplate(), path.join(dir, 'pgdata'), {
    recursive: true,
  });
  return dir;
}

/**
 * A pool of a test's own on a scratch database. A connection still closing when the database is
 * dropped (WITH FORCE) hears "terminating connection" from Postgres: the pool's error, with nobody
 * left to tell, which would otherwise end the test run as an uncaught exception.
 */
export function scratchPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

/** Deletes the keys matching ARGV[1] in one step; a Lua call's arguments stop near 8,000. */
const DROP_PREFIX_SCRIPT = `
local keys = redis.call('KEYS', ARGV[1])
for i = 1, #keys, 5000 do
  redis.call('UNLINK', unpack(keys, i, math.min(i + 4999, #keys)))
end
return #keys
`;

/**
 * Removes every key under a prefix at once, as a Redis that lost its data would: a server
 * rebuilding meanwhile never sees half of them gone (a SCAN over a shared Redis takes many round
 * trips, and a rebuild between two of them would be partly deleted). Test prefixes hold few keys.
 */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    await redis.eval(DROP_PREFIX_SCRIPT, 0, `${prefix}:*`);
  } finally {
    await redis.quit();
  }
}

/** A loopback port free at the time of asking, for a process that must be told its port. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
