import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { openAdapterClients, openRedis, type Redis } from '../../src/core/redis';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess } from '../../test-support/redis-process';
import { TEST_REDIS_URL } from '../../test-support/services';

const logger = createLogger('silent');

describe.runIf(await redisAvailable())('the Socket.IO adapter’s Redis connections', () => {
  let main: Redis | undefined;
  afterEach(() => {
    main?.disconnect();
  });

  async function open(url = TEST_REDIS_URL) {
    main = await openRedis(url, logger);
    const failures: Error[] = [];
    const [pub, sub] = openAdapterClients(main, logger, (err) => failures.push(err));
    return { pub, sub, failures };
  }

  it('send a publish issued just before shutdown ahead of the QUIT', async () => {
    const { pub, sub, failures } = await open();
    await pub.ping();
    // As the adapter does when the last push of a stopping process goes out.
    const sent = pub.publish('tgtest-adapter-clients', 'boards');
    await pub.quit();
    await expect(sent).resolves.toBe(0);
    expect(failures).toEqual([]);
    sub.disconnect();
  });

  it('tell a publish that failed to the error handler, not as an unhandled rejection', async () => {
    const { pub, sub, failures } = await open();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      pub.disconnect();
      // The adapter publishes without waiting for the answer, and never looks at it.
      void pub.publish('tgtest-adapter-clients', 'boards');
      await expect
        .poll(() => failures.map((err) => err.message))
        .toEqual(['Connection is closed.']);
      // Unhandled rejections are reported once the microtasks have run: let them.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      sub.disconnect();
    }
  });

  it('keep every subscription asked for while the connection is being made', async () => {
    const { pub, sub, failures } = await open();
    const key = `tgtest-adapter-${process.pid}-${Date.now()}`;
    try {
      // As a clustered worker subscribes: the first namespace's adapter before the connection is
      // made, the next one's once it is made but not yet ready (the worker awaited in between).
      void sub.psubscribe(`${key}#/#*`);
      await new Promise((resolve) => sub.once('connect', resolve));
      void sub.psubscribe(`${key}#/live#*`);
      // Each pattern has its one subscriber: a message of either namespace reaches this process.
      await expect.poll(() => pub.publish(`${key}#/#`, 'boards')).toBe(1);
      expect(await pub.publish(`${key}#/live#`, 'post')).toBe(1);
      expect(failures).toEqual([]);
    } finally {
      pub.disconnect();
      sub.disconnect();
    }
  });

  it('keep a subscription asked for while Redis is away, and make it once Redis is back', async () => {
    const redis = await startRedisProcess();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const { pub, sub } = await open(redis.url);
    const received: string[] = [];
    sub.on('pmessage', (_pattern: string, _channel: string, message: string) =>
      received.push(message),
    );
    try {
      await sub.ping();
      await redis.kill();
      // As a namespace made while Redis is away (or before its answer came) subscribes; the adapter
      // never looks at the answer. Several reconnection attempts fail while it waits.
      const attempts = new Promise<void>((resolve) => {
        let failed = 0;
        sub.on('reconnecting', () => {
          if (++failed === 3) resolve();
        });
      });
      void sub.psubscribe('tgtest-adapter-sub#*');
      await attempts;
      await redis.start();
      await expect
        .poll(async () => {
          await pub.publish('tgtest-adapter-sub#boards', 'boards');
          return received;
        })
        .toContain('boards');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      pub.disconnect();
      sub.disconnect();
      await redis.stop();
    }
  });
});
