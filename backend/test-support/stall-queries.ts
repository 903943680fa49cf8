import pg from 'pg';

/**
 * Loaded into a server process before the app (`spawnServer(env, { preload })`): a query whose
 * text matches `TAPGRAM_TEST_STALL_SQL` (a regular expression) never gets its answer, as if the
 * process froze right there, and `stalled query` is printed, so that a test kills the process at
 * a chosen point of its work, never by timing.
 */
const pattern = process.env.TAPGRAM_TEST_STALL_SQL;
if (pattern) {
  const stall = new RegExp(pattern);
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string } | null)?.text;
    if (text && stall.test(text)) {
      process.stdout.write(`stalled query: ${text.trim().slice(0, 60)}\n`);
      return new Promise(() => undefined);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}
