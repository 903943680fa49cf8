import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/core/events';
import { createLogger } from '../../src/core/logger';
import { redisAvailable } from '../../test-support/availability';
import { dropRedisPrefix, TEST_REDIS_URL, uniqueName } from '../../test-support/services';

declare module '../../src/core/events' {
  interface DomainEvents {
    'test.happened': { n: number };
    'test.probe': { n: number };
  }
}

const silent = createLogger('silent');
/** The outbox of a bus that only emits: never asked, so never connected. */
const noOutbox = () => ({ pool: new pg.Pool(), leaseSeconds: 30 });

describe('domain events on one node', () => {
  it('runs every handler after the emit returns, each with the payload', async () => {
    const bus = await createEventBus({ redis: null, prefix: 'x', logger: silent, ...noOutbox() });
    const seen: string[] = [];
    bus.on('test.happened', ({ n }) => void seen.push(`a${n}`));
    bus.on('test.happened', ({ n }) => void seen.push(`b${n}`), { where: 'every-node' });
    bus.emit('test.happened', { n: 1 });
    expect(seen).toEqual([]);
    await bus.settled();
    expect(seen).toEqual(['a1', 'b1']);
  });

  it('logs a failing handler and still runs the others; a removed handler no longer runs', async () => {
    const errors: unknown[] = [];
    const logger = createLogger('silent');
    logger.error = ((obj: unknown) => void errors.push(obj)) as typeof logger.error;
    const bus = await createEventBus({ redis: null, prefix: 'x', logger, ...noOutbox() });
    const seen: number[] = [];
    bus.on('test.happened', () => {
      throw new Error('broken handler');
    });
    const remove = bus.on('test.happened', ({ n }) => void seen.push(n));
    bus.on('test.happened', async ({ n }) => void seen.push(n * 10));
    bus.emit('test.happened', { n: 1 });
    await bus.settled();
    remove();
    bus.emit('test.happened', { n: 2 });
    await bus.settled();
    expect(seen).toEqual([1, 10, 20]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ event: 'test.happened' });
  });
});

describe.runIf(await redisAvailable())('domain events across nodes on one Redis', () => {
  const buses: EventBus[] = [];
  const redises: Redis[] = [];
  let prefix = '';

  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
    for (const redis of redises.splice(0)) await redis.quit();
    await dropRedisPrefix(prefix);
  });

  async function node(): Promise<EventBus> {
    const redis = new Redis(TEST_REDIS_URL);
    redises.push(redis);
    const bus = await createEventBus({ redis, prefix, logger: silent, ...noOutbox() });
    buses.push(bus);
    return bus;
  }

  it("runs another node's every-node handlers once, and its origin handlers never", async () => {
    prefix = uniqueName('tgevents');
    const [here, there] = [await node(), await node()];
    const hereSeen: string[] = [];
    const thereSeen: string[] = [];
    here.on('test.happened', ({ n }) => void hereSeen.push(`origin ${n}`));
    here.on('test.happened', ({ n }) => void hereSeen.push(`every ${n}`), { where: 'every-node' });
    there.on('test.happened', ({ n }) => void thereSeen.push(`origin ${n}`));
    there.on('test.happened', ({ n }) => void thereSeen.push(`every ${n}`), {
      where: 'every-node',
    });
    const probed = new Promise<void>((resolve) =>
      there.on('test.probe', () => resolve(), { where: 'every-node' }),
    );

    here.emit('test.happened', { n: 1 });
    // Events travel in order: once the probe arrived there, the first event has too.
    here.emit('test.probe', { n: 2 });
    await probed;
    await Promise.all([here.settled(), there.settled()]);

    expect(hereSeen).toEqual(['origin 1', 'every 1']);
    expect(thereSeen).toEqual(['every 1']);
  });
});
