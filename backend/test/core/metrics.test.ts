import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { postgresAnswers } from '../../test-support/services';
import { makePlayer, tap } from '../game/builders';
import { storageModes } from '../game/modes';
import { gameSockets, nextBoard, sendTaps } from '../game/socket-client';

const TOKEN = 'metrics-token-0123456789abcdef';
const POLL = { timeout: 15_000, interval: 50 };

/**
 * The value of the exposition line of series `name` whose labels are exactly `labels`, read with
 * plain regexes on the Prometheus text (not with the library that wrote it); undefined: no line.
 */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, key, value]): [string, string] => [key, value])
      .sort(([a], [b]) => a.localeCompare(b));
    if (JSON.stringify(found) === JSON.stringify(wanted)) return Number(match[3]);
  }
  return undefined;
}

/** Like `sample`, with 0 for a series that has not appeared yet (a counter nothing counted). */
const count = (text: string, name: string, labels: Record<string, string> = {}) =>
  sample(text, name, labels) ?? 0;

function scrape(url: string, token: string | null = TOKEN) {
  const req = request(url).get('/metrics');
  return token === null ? req : req.set('Authorization', `Bearer ${token}`);
}

async function metricsText(url: string, token: string | null = TOKEN): Promise<string> {
  const res = await scrape(url, token);
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status} ${res.text}`);
  return res.text;
}

/** /metrics on `url` is answered as an unknown path is (the app's Page Not Found, or the API's 404). */
async function expectUnknownPath(url: string) {
  const unknown = await request(url).get('/no-such-page');
  expect(unknown.status).toBe(404);
  for (const res of [await scrape(url, null), await scrape(url)]) {
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
    // Without a built frontend the API's 404 names the path it was asked for.
    expect(res.text).toBe(unknown.text.replace('/no-such-page', '/metrics'));
  }
}

describe('GET /metrics without configuration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is a 404 like any unknown path, token or not', async () => {
    await expectUnknownPath(server.url);
  });
});

describe('metrics configuration', () => {
  const load = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'test', ...env });

  it('refuses a short or malformed METRICS_TOKEN at start, naming it and hiding its value', () => {
    for (const token of [
      'short-token',
      'has spaces in the middle of it',
      'quote"d-token-0123456789',
    ]) {
      expect(load({ METRICS_TOKEN: token })).toThrow(ConfigError);
      expect(load({ METRICS_TOKEN: token })).toThrow(/METRICS_TOKEN \(value hidden\): .*bearer/);
    }
  });

  it('refuses a METRICS_PORT that is not a port or is PORT itself', () => {
    expect(load({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT "nine": must be a port number/);
    expect(load({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT "70000": must be a port/);
    expect(load({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT "3000": must differ/,
    );
  });

  it('takes a good token and port, the port on loopback unless METRICS_HOST is set', () => {
    expect(load({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464', HOST: '0.0.0.0' })()).toMatchObject({
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: 9464,
      METRICS_HOST: '127.0.0.1',
    });
    expect(load({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })()).toMatchObject({
      METRICS_HOST: '0.0.0.0',
    });
  });
});

describe.each(storageModes)('GET /metrics behind METRICS_TOKEN (%s mode)', (mode) => {
  let server: TestServer;
  const socketTo = gameSockets(() => server.url);
  beforeAll(async () => {
    server = await startTestServer({
      mode,
      env: { METRICS_TOKEN: TOKEN, FLUSH_INTERVAL_MS: '100' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 401 {error} without the token or with a wrong one', async () => {
    const refused = [
      await scrape(server.url, null),
      await scrape(server.url, `${TOKEN}x`),
      await scrape(server.url, TOKEN.slice(0, -1)),
      await request(server.url).get('/metrics').set('Authorization', `Basic ${TOKEN}`),
    ];
    for (const res of refused) {
      expect([res.status, res.body]).toEqual([401, { error: expect.any(String) }]);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.text).not.toMatch(/tapgram_/);
    }
  });

  it('answers the Prometheus text with the token: process, event loop and the game series', async () => {
    const res = await scrape(server.url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    for (const series of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'tapgram_sockets_connected',
      'tapgram_flush_lag_seconds',
      'tapgram_taps_accepted_total',
      'tapgram_postgres_errors_total',
    ]) {
      expect(sample(text, series), series).toBeGreaterThanOrEqual(0);
    }
    for (const family of [
      'tapgram_http_request_duration_seconds histogram',
      'tapgram_tap_ack_seconds histogram',
      'tapgram_taps_refused_total counter',
      'tapgram_leaderboard_pushes_total counter',
      'tapgram_flushed_rows_total counter',
      'tapgram_redis_errors_total counter',
    ]) {
      expect(text).toContain(`# TYPE ${family}\n`);
    }
  });

  it('counts accepted taps, and the tap route by its key and status', async () => {
    const route = { method: 'POST', route: '/api/tap', status: '200' };
    const before = await metricsText(server.url);
    const player = await makePlayer(server.url);
    for (let i = 0; i < 3; i += 1) expect((await tap(server.url, player)).status).toBe(200);
    const after = await metricsText(server.url);

    const delta = (name: string, labels: Record<string, string> = {}) =>
      count(after, name, labels) - count(before, name, labels);
    expect(delta('tapgram_taps_accepted_total')).toBe(3);
    expect(delta('tapgram_http_requests_total', route)).toBe(3);
    expect(delta('tapgram_http_request_duration_seconds_count', route)).toBe(3);
    expect(delta('tapgram_http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(3);
  });

  it('labels Express routes by their pattern, never by the path a client wrote', async () => {
    const player = await makePlayer(server.url);
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).status).toBe(200);
    const unknown = `/api/no-such-${player.user.id.slice(0, 8)}`;
    expect((await request(server.url).get(unknown)).status).toBe(404);
    const text = await metricsText(server.url);
    expect(
      sample(text, 'tapgram_http_requests_total', {
        method: 'GET',
        route: '(none)',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    const labels = { method: 'GET', route: '/api/users/:id', status: '200' };
    expect(sample(text, 'tapgram_http_requests_total', labels)).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'tapgram_http_requests_total', {
        method: 'POST',
        route: '/api/users',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(player.user.id);
  });

  it('labels a route that answered with an error by its whole pattern, mount path included', async () => {
    const id = crypto.randomUUID();
    expect((await request(server.url).get(`/api/lolgram/posts/${id}`)).status).toBe(404);
    const text = await metricsText(server.url);
    const labels = { method: 'GET', route: '/api/lolgram/posts/:id', status: '404' };
    expect(sample(text, 'tapgram_http_requests_total', labels)).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/posts\/:id"/);
    expect(text).not.toContain(id);
  });

  it('counts a refused tap as refused, by its reason, and not as accepted', async () => {
    const [player, other] = [await makePlayer(server.url), await makePlayer(server.url)];
    const before = await metricsText(server.url);
    // Another player's cookie: refused, nothing counted.
    const refused = await tap(server.url, player, { userId: other.user.id });
    expect(refused.status).toBe(403);
    const after = await metricsText(server.url);
    const forbidden = { reason: 'forbidden' };
    expect(
      count(after, 'tapgram_taps_refused_total', forbidden) -
        count(before, 'tapgram_taps_refused_total', forbidden),
    ).toBe(1);
    expect(count(after, 'tapgram_taps_accepted_total')).toBe(
      count(before, 'tapgram_taps_accepted_total'),
    );
    const route = { method: 'POST', route: '/api/tap', status: '403' };
    expect(
      count(after, 'tapgram_http_requests_total', route) -
        count(before, 'tapgram_http_requests_total', route),
    ).toBe(1);
  });

  it('counts game-channel batches, their acknowledgements, refusals by rate, pushes and sockets', async () => {
    const player = await makePlayer(server.url);
    const before = await metricsText(server.url);
    const socket = await socketTo(player.cookie);
    // A fresh player's bucket holds the burst (40 by default): one batch above it is refused whole.
    const tooMany = await sendTaps(socket, player.session.id, 41, 1);
    expect(tooMany).toMatchObject({ ok: false, status: 429 });
    expect(await sendTaps(socket, player.session.id, 5, 2)).toMatchObject({ ok: true });
    // The change reaches the sockets in a push of the boards, which the metrics count.
    await nextBoard(socket, 'users', (users) =>
      users.some((u) => u.id === player.user.id && u.totalPoints === 5),
    );
    const pushes = async () =>
      count(await metricsText(server.url), 'tapgram_leaderboard_pushes_total') -
      count(before, 'tapgram_leaderboard_pushes_total');
    await expect.poll(pushes, POLL).toBeGreaterThanOrEqual(1);
    const after = await metricsText(server.url);

    const delta = (name: string, labels: Record<string, string> = {}) =>
      count(after, name, labels) - count(before, name, labels);
    expect(delta('tapgram_taps_refused_total', { reason: 'rate_limited' })).toBe(41);
    expect(delta('tapgram_taps_accepted_total')).toBe(5);
    expect(delta('tapgram_tap_batches_total')).toBe(2);
    expect(delta('tapgram_tap_ack_seconds_count')).toBe(2);
    expect(sample(after, 'tapgram_sockets_connected')).toBeGreaterThanOrEqual(1);
  });

  if (mode === 'redis') {
    it('counts the rows each flush writes, and measures the lag from the last flush', async () => {
      const before = await metricsText(server.url);
      const player = await makePlayer(server.url);
      expect((await tap(server.url, player)).status).toBe(200);
      const users = { table: 'users' };
      await expect
        .poll(
          async () => count(await metricsText(server.url), 'tapgram_flushed_rows_total', users),
          POLL,
        )
        .toBeGreaterThan(count(before, 'tapgram_flushed_rows_total', users));
      const text = await metricsText(server.url);
      expect(sample(text, 'tapgram_flushed_rows_total', { table: 'sessions' })).toBeGreaterThan(0);
      expect(sample(text, 'tapgram_flushed_rows_total', { table: 'countries' })).toBeGreaterThan(0);
      expect(sample(text, 'tapgram_flush_lag_seconds')).toBeGreaterThanOrEqual(0);
    });
  } else {
    it('shows no flush lag and no flushed rows: every tap is in Postgres at once', async () => {
      const player = await makePlayer(server.url);
      expect((await tap(server.url, player)).status).toBe(200);
      const text = await metricsText(server.url);
      expect(sample(text, 'tapgram_flush_lag_seconds')).toBe(0);
      expect(sample(text, 'tapgram_flushed_rows_total', { table: 'users' })).toBeUndefined();
    });
  }
});

describe('metrics on METRICS_PORT', () => {
  let server: TestServer;
  let guarded: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_PORT: '0' } });
    guarded = await startTestServer({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
    await guarded?.stop();
  });

  it('serves the same text on its own port, while the main port has no /metrics', async () => {
    const metricsUrl = server.metricsUrl!;
    expect(metricsUrl).toBeDefined();
    expect(new URL(metricsUrl).port).not.toBe(String(server.port));
    const player = await makePlayer(server.url);
    expect((await tap(server.url, player)).status).toBe(200);

    const res = await scrape(metricsUrl, null);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.text, 'tapgram_taps_accepted_total')).toBe(1);
    expect(
      sample(res.text, 'tapgram_http_requests_total', {
        method: 'POST',
        route: '/api/tap',
        status: '200',
      }),
    ).toBe(1);
    expect(sample(res.text, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    await expectUnknownPath(server.url);
    const other = await request(metricsUrl).get('/api/leaderboard/users');
    expect([other.status, other.body]).toEqual([404, { error: expect.any(String) }]);
  });

  it('asks for the token there too when METRICS_TOKEN is also set', async () => {
    const metricsUrl = guarded.metricsUrl!;
    const refused = await scrape(metricsUrl, null);
    expect([refused.status, refused.body]).toEqual([401, { error: expect.any(String) }]);
    expect((await scrape(metricsUrl, 'wrong-token-0123456789')).status).toBe(401);
    const res = await scrape(metricsUrl);
    expect(res.status).toBe(200);
    expect(sample(res.text, 'tapgram_taps_accepted_total')).toBe(0);
    expect((await scrape(guarded.url)).status).toBe(404);
  });

  it('listens on loopback only, whatever HOST is, unless METRICS_HOST opens it', async () => {
    // Every 127.x address reaches this machine's loopback; one bound to 127.0.0.1 answers only there.
    const at = (address: string, url: string) =>
      fetch(`http://${address}:${new URL(url).port}/metrics`).then(
        (res) => res.status,
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
    const everywhere = await startTestServer({ env: { HOST: '0.0.0.0', METRICS_PORT: '0' } });
    const opened = await startTestServer({ env: { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' } });
    try {
      expect(await at('127.0.0.2', everywhere.url)).toBe(404);
      expect(await at('127.0.0.2', everywhere.metricsUrl!)).toBe('ECONNREFUSED');
      expect(await at('127.0.0.1', everywhere.metricsUrl!)).toBe(200);
      expect(await at('127.0.0.2', opened.metricsUrl!)).toBe(200);
    } finally {
      await everywhere.stop();
      await opened.stop();
    }
  });

  it('closes the metrics port when the server stops', async () => {
    const own = await startTestServer({ env: { METRICS_PORT: '0' } });
    const metricsUrl = own.metricsUrl!;
    expect((await scrape(metricsUrl, null)).status).toBe(200);
    await own.stop();
    await expect(fetch(`${metricsUrl}/metrics`)).rejects.toThrow();
  });
});

describe.runIf(await redisAvailable())('Redis errors in the metrics', () => {
  let redis: RedisProcess;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({
      mode: 'redis',
      env: { REDIS_URL: redis.url, METRICS_TOKEN: TOKEN },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('counts the connection errors of a Redis that went away', async () => {
    const main = { client: 'main' };
    expect(count(await metricsText(server.url), 'tapgram_redis_errors_total', main)).toBe(0);
    await redis.kill();
    await expect
      .poll(
        async () => count(await metricsText(server.url), 'tapgram_redis_errors_total', main),
        POLL,
      )
      .toBeGreaterThan(0);
    // Back, so that the server stops as usual (its last flush needs Redis).
    await redis.start();
    await expect
      .poll(async () => (await request(server.url).get('/readyz')).status, POLL)
      .toBe(200);
  });
});

describe.runIf(await postgresAnswers())('Postgres errors in the metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts the errors of pool connections that Postgres dropped', async () => {
    expect(count(await metricsText(server.url), 'tapgram_postgres_errors_total')).toBe(0);
    // At least one idle connection in the pool, then every connection to the database killed.
    await server.db.pool.query('SELECT 1');
    const admin = new pg.Client({ connectionString: server.databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS killed FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      expect(Number(killed.rows[0].killed)).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await expect
      .poll(async () => count(await metricsText(server.url), 'tapgram_postgres_errors_total'), POLL)
      .toBeGreaterThan(0);
  });
});
