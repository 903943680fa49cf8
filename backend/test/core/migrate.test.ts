import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { runMigrations } from '../../src/core/migrate';
import { createScratchDatabase, scratchPool } from '../../test-support/services';

describe('migrations on one Postgres shared by several nodes', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    scratch = await createScratchDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await scratch?.drop();
  });

  it('lets nodes that start together take turns: one applies, the others find nothing to do', async () => {
    const nodes = Array.from({ length: 3 }, () => {
      const pool = scratchPool(scratch.url, 1);
      pools.push(pool);
      return pool;
    });
    const applied = await Promise.all(
      nodes.map((pool) => runMigrations(pool, createLogger('silent'))),
    );
    const counts = applied.map((names) => names.length).sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts.slice(1)).toEqual([0, 0]);
  });
});
