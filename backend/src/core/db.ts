import pg from 'pg';
import { openEmbeddedDatabase } from './embedded-db';
import type { Database, Queryable } from './database';
import type { Logger } from './logger';

// Counters are bigint columns; their values stay far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type { Database, Queryable } from './database';

/**
 * Adds (`on`) or removes the one row that `params` name, with the given statements; answers 1 or
 * -1 when a row really changed and 0 when it was already so, for the counters that follow it.
 */
export async function toggleRow(
  client: Queryable,
  on: boolean,
  statements: { insert: string; remove: string },
  params: unknown[],
): Promise<-1 | 0 | 1> {
  const changed = await client.query(on ? statements.insert : statements.remove, params);
  if ((changed.rowCount ?? 0) === 0) return 0;
  return on ? 1 : -1;
}

/** What runs once the transaction of a client commits, by client (only inside withTransaction). */
const committed = new WeakMap<pg.PoolClient, (() => void)[]>();

/**
 * Runs `then` once the transaction that `client` is in commits, after the client went back to the
 * pool (never when it rolls back). Only a client of `withTransaction` has a transaction to wait for.
 */
export function onCommit(client: pg.PoolClient, then: () => void): void {
  const waiting = committed.get(client);
  if (!waiting) throw new Error('onCommit needs a client of withTransaction');
  waiting.push(then);
}

/** Runs `work` in one transaction on one client, rolling back when it throws. */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const then: (() => void)[] = [];
  committed.set(client, then);
  let result: T;
  try {
    await client.query('BEGIN');
    result = await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    committed.delete(client);
    client.release();
  }
  for (const run of then) run();
  return result;
}

/**
 * Opens the configured Postgres, or with no DATABASE_URL an embedded one (PGlite persisted under
 * DATA_DIR) served over the Postgres wire protocol so that the rest of the app uses the same pg code.
 */
export async function openDatabase(
  options: {
    databaseUrl: string | undefined;
    dataDir: string;
    poolSize?: number;
    /** Told of each error of an idle client of the pool (a dropped or killed connection). */
    onError?: (err: Error) => void;
  },
  logger: Logger,
): Promise<Database> {
  let db: Database;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
    });
    pool.on('error', (err) => logger.error({ err }, 'idle database client error'));
    db = { pool, kind: 'external', close: () => pool.end() };
  } else {
    db = await openEmbeddedDatabase(options.dataDir, logger);
  }
  if (options.onError) db.pool.on('error', options.onError);
  return db;
}

/** The Postgres errors a repository turns into an answer (SQLSTATE codes). */
const SQLSTATE = {
  unique: '23505',
  foreignKey: '23503',
  lockNotAvailable: '55P03',
  deadlock: '40P01',
} as const;

/**
 * Whether `error` is Postgres refusing a write for a unique constraint (`constraint`: that one) or
 * for a foreign key, or giving up on a lock (lock_timeout, a deadlock).
 */
export function violates(
  error: unknown,
  kind: keyof typeof SQLSTATE,
  constraint?: string,
): boolean {
  const { code, constraint: which } = (error ?? {}) as { code?: string; constraint?: string };
  return code === SQLSTATE[kind] && (constraint === undefined || which === constraint);
}
