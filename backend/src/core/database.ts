import type pg from 'pg';

/** The database the app runs on: a Postgres server, or the embedded one. */
export interface Database {
  pool: pg.Pool;
  kind: 'external' | 'embedded';
  close(): Promise<void>;
}

/** What reads and writes need of a pool or a client in a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;
