import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { lockDirectory } from './data-dir-lock';
import type { Database } from './database';
import type { Logger } from './logger';
import { PRIVATE_DIR_MODE, restrictToOwner } from './private-files';

// The socket server queues each protocol message, not each query cycle, so two connections would
// interleave their Parse/Bind/Execute messages in PGlite's single session: one connection it is.
// It stays open (no idle timeout), and a replacement starts with no prepared statements left over.
const SOCKET_PORT = 5432;

/** The embedded Postgres: PGlite under `dataDir`, reached by pg through a private unix socket. */
export async function openEmbeddedDatabase(dataDir: string, logger: Logger): Promise<Database> {
  const dir = path.join(dataDir, 'pgdata');
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // PGlite is a single-process Postgres: a second process opening the same files would corrupt
  // them. The lock keeps the server, `npm run migrate` and `npm run admin` apart.
  const releaseLock = await lockDirectory(
    dir,
    (pid) =>
      `The embedded database in ${dir} is in use by process ${pid}: stop it first ` +
      '(or set DATABASE_URL to use a PostgreSQL server).',
  );
  const socketDir = await privateSocketDir(dataDir);
  try {
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite-socket'),
    ]);
    const db = await PGlite.create(dir);
    // PGlite's file system applies a umask of its own (022) and sets each new file's mode after
    // creating it, whatever this process's umask: the files of a new database come out 0666. They
    // are taken back now, and what it wrote while running when it closes (until then, inside
    // directories nobody else may enter).
    const { changed } = await restrictToOwner(dir);
    logger.debug({ dir, changed }, 'embedded Postgres files made readable by this user only');
    // A unix socket in a directory only this user can enter: no other local user can connect.
    const server = new PGLiteSocketServer({
      db,
      path: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
      maxConnections: 2,
    });
    await server.start();
    const pool = new pg.Pool({
      host: socketDir,
      port: SOCKET_PORT,
      user: 'postgres',
      database: 'postgres',
      max: 1,
      idleTimeoutMillis: 0,
    });
    pool.on('connect', (client) => {
      client.query('DEALLOCATE ALL').catch((err: unknown) => {
        logger.error({ err }, 'embedded Postgres: could not reset prepared statements');
      });
    });
    pool.on('error', (err) => logger.error({ err }, 'idle database client error'));
    logger.info({ dir }, 'embedded Postgres started');
    return {
      pool,
      kind: 'embedded',
      async close() {
        await pool.end();
        await server.stop();
        await db.close();
        await restrictToOwner(dir);
        await fs.rm(socketDir, { recursive: true, force: true });
        await releaseLock();
      },
    };
  } catch (error) {
    await fs.rm(socketDir, { recursive: true, force: true });
    await releaseLock();
    throw error;
  }
}

/** A directory only this user may enter; a unix socket path must stay under about 100 bytes. */
async function privateSocketDir(dataDir: string): Promise<string> {
  const dir = path.resolve(dataDir, 'run');
  if (Buffer.byteLength(path.join(dir, `.s.PGSQL.${SOCKET_PORT}`)) > 100) {
    return fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-pg-'));
  }
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { mode: 0o700 });
  return dir;
}
