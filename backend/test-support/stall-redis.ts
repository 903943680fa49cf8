import Redis from 'ioredis';

/**
 * Loaded into a server process before the app (`spawnServer(env, { preload })`), as
 * stall-queries.ts is for SQL: a Redis command one of whose arguments matches
 * `TAPGRAM_TEST_STALL_REDIS` (a regular expression) is never sent and never answered, as if the
 * process froze right there, and `stalled redis command` is printed, so that a test kills the
 * process at a chosen point of its work (between a Postgres commit and the Redis script after it).
 */
const pattern = process.env.TAPGRAM_TEST_STALL_REDIS;
if (pattern) {
  const stall = new RegExp(pattern);
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof send>) {
    const [command] = args;
    const matched = command.args.some((arg) => typeof arg === 'string' && stall.test(arg));
    if (matched) {
      process.stdout.write(`stalled redis command: ${command.name}\n`);
      return new Promise(() => undefined);
    }
    return send.apply(this, args);
  } as typeof send;
}
