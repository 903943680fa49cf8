import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type pg from 'pg';
import type { Logger } from './logger';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * Applies every pending migration (plain SQL files) in one transaction. Nodes started together
 * take turns on the migration lock: the first applies, the others wait and find nothing to do.
 */
export async function runMigrations(pool: pg.Pool, logger: Logger): Promise<string[]> {
  const client = await pool.connect();
  try {
    const applied = await runner({
      dbClient: client,
      dir: MIGRATIONS_DIR,
      direction: 'up',
      migrationsTable: 'pgmigrations',
      count: Infinity,
      singleTransaction: true,
      advisoryLockMode: 'wait',
      log: (message) => logger.debug(message),
    });
    const names = applied.map((migration) => migration.name);
    if (names.length > 0) logger.info({ migrations: names }, 'migrations applied');
    return names;
  } finally {
    client.release();
  }
}
