import fs from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, withTransaction, type Database } from '../../src/core/db';
import { createEventBus, type Delivery, type EventBus } from '../../src/core/events';
import { createLogger } from '../../src/core/logger';
import {
  createScratchDatabase,
  migratedEmbeddedDataDir,
  postgresAnswers,
} from '../../test-support/services';

declare module '../../src/core/events' {
  interface DomainEvents {
    'test.recorded': { n: number };
  }
}

const silent = createLogger('silent');
const modes = [...((await postgresAnswers()) ? (['postgres'] as const) : []), 'embedded'] as const;

/** A handler's write, made once per event however often the event is delivered. */
async function writeOnce(pool: pg.Pool, delivery: Delivery, n: number): Promise<void> {
  await withTransaction(pool, async (client) => {
    if (await delivery.once(client, 'write')) {
      await client.query('INSERT INTO test_writes (n) VALUES ($1)', [n]);
    }
  });
}

describe.each(modes)('recorded domain events (%s database)', (mode) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    if (mode === 'postgres') {
      const scratch = await createScratchDatabase({ migrated: true });
      db = await openDatabase({ databaseUrl: scratch.url, dataDir: '' }, silent);
      cleanup = scratch.drop;
    } else {
      const dataDir = await migratedEmbeddedDataDir();
      db = await openDatabase({ databaseUrl: undefined, dataDir }, silent);
      cleanup = () => fs.rm(dataDir, { recursive: true, force: true });
    }
    await db.pool.query('CREATE TABLE test_writes (n integer NOT NULL)');
  });
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
    await db.pool.query('TRUNCATE test_writes, event_outbox CASCADE');
  });
  afterAll(async () => {
    await db?.close();
    await cleanup?.();
  });

  async function node(leaseSeconds = 30): Promise<EventBus> {
    const bus = await createEventBus({
      redis: null,
      prefix: 'x',
      logger: silent,
      pool: db.pool,
      leaseSeconds,
    });
    buses.push(bus);
    return bus;
  }
  const record = (bus: EventBus, n: number) =>
    withTransaction(db.pool, (client) => bus.record(client, 'test.recorded', { n }));
  const writes = async () =>
    (await db.pool.query<{ n: number }>('SELECT n FROM test_writes ORDER BY n')).rows.map(
      (row) => row.n,
    );
  const outbox = async () =>
    (await db.pool.query<{ n: number }>("SELECT (payload->>'n')::int AS n FROM event_outbox")).rows;

  it('runs the handlers once the transaction commits, then forgets the event; never for a rollback', async () => {
    const bus = await node();
    const seen: number[] = [];
    bus.on('test.recorded', ({ n }) => void seen.push(n));
    await withTransaction(db.pool, async (client) => {
      await bus.record(client, 'test.recorded', { n: 1 });
      await bus.settled();
      // Written, not yet told: the change that caused it is not committed.
      expect(seen).toEqual([]);
    });
    await expect(
      withTransaction(db.pool, async (client) => {
        await bus.record(client, 'test.recorded', { n: 2 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await record(bus, 3);
    await bus.settled();
    expect(seen).toEqual([1, 3]);
    expect(await outbox()).toEqual([]);
  });

  it('retries a failing handler until it succeeds, making the write of the others once', async () => {
    const bus = await node(1);
    let tries = 0;
    const succeeded = new Promise<void>((resolve) =>
      bus.on('test.recorded', () => {
        tries += 1;
        if (tries < 3) throw new Error('not yet');
        resolve();
      }),
    );
    bus.on('test.recorded', ({ n }, delivery) => writeOnce(db.pool, delivery, n));
    bus.start();
    await record(bus, 7);
    await succeeded;
    await bus.settled();
    expect(tries).toBe(3);
    expect(await writes()).toEqual([7]);
    expect(await outbox()).toEqual([]);
  });

  it("delivers a node's event once while it holds it, and takes over one a dead node left", async () => {
    const [here, there] = [await node(), await node()];
    let finish = () => undefined as void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const hereSeen: number[] = [];
    const thereSeen: number[] = [];
    here.on('test.recorded', async ({ n }) => {
      hereSeen.push(n);
      await gate;
    });
    const tookOver = new Promise<void>((resolve) =>
      there.on('test.recorded', ({ n }) => {
        thereSeen.push(n);
        if (n === 2) resolve();
      }),
    );
    await record(here, 1);
    // What a node that died left: an event whose lease has run out.
    await db.pool.query(
      `INSERT INTO event_outbox (name, payload, locked_until)
       VALUES ('test.recorded', '{"n": 2}', now() - interval '1 second')`,
    );
    there.start();
    await tookOver;
    finish();
    await Promise.all([here.settled(), there.settled()]);
    expect(hereSeen).toEqual([1]);
    expect(thereSeen).toEqual([2]);
    expect(await outbox()).toEqual([]);
  });

  it('delivers again what a node was delivering when it stopped answering; the write is made once', async () => {
    const stuck = await node(1);
    const other = await node(1);
    let release = () => undefined as void;
    const frozen = new Promise<void>((resolve) => {
      release = resolve;
    });
    // This node writes, then freezes before it can say so: another node delivers it again.
    const wrote = new Promise<void>((resolve) =>
      stuck.on('test.recorded', async ({ n }, delivery) => {
        await writeOnce(db.pool, delivery, n);
        resolve();
        await frozen;
      }),
    );
    const redelivered = new Promise<void>((resolve) =>
      other.on('test.recorded', async ({ n }, delivery) => {
        await writeOnce(db.pool, delivery, n);
        resolve();
      }),
    );
    await record(stuck, 5);
    await wrote;
    other.start();
    await redelivered;
    await other.settled();
    release();
    await stuck.settled();
    expect(await writes()).toEqual([5]);
    expect(await outbox()).toEqual([]);
  });
});
