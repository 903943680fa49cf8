import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { gameEvents } from '@tapgram/shared';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import {
  createScratchDatabase,
  dropRedisPrefix,
  freePort,
  postgresAnswers,
  TEST_REDIS_URL,
  uniqueName,
} from '../../test-support/services';
import { makePlayer, type Player } from '../game/builders';
import { connectGame, nextBoard, sendTaps } from '../game/socket-client';
import {
  channelOver,
  nextPing,
  slowBody,
  slowHeaders,
  TIMED_OUT,
  trickle,
} from '../helpers/slow-client';

const BACKEND_DIR = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'test-secret-test-secret-test-secret-0123';
const TOKEN = 'metrics-token-0123456789abcdef';
// A worker's start (tsx, connections, the boards) takes seconds on a busy machine.
const POLL = { timeout: 90_000, interval: 200 };

/** The worker that holds a Socket.IO session, as its id names it (`<worker>.<random>`). */
const ownerOf = (sid: string | undefined) => Number(/^(\d+)\./.exec(sid ?? '')?.[1]);

/** The pids of the primary's children: its workers. */
function workerPids(primary: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(primary), '-f', 'main.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep answers 1 when there is none
  }
}

/**
 * One HTTP request on a connection of its own (no keep-alive), as a browser's polling requests
 * may come: the cluster hands each new connection to the next worker in turn.
 */
function fresh(
  url: string,
  path: string,
  options: {
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    /** Gives up after this long without an answer (a connection handed to a worker as it died). */
    giveUpMs?: number;
  } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, url),
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: options.headers,
        timeout: options.giveUpMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path}`)));
    req.end(options.body);
  });
}

/**
 * A polling POST that declares a body of `bytes` and sends only its first 64 KB, on a connection
 * of its own: resolves with the answer, which must come before the rest of the body.
 */
function unfinishedPost(
  url: string,
  path: string,
  bytes: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, url),
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'content-length': String(bytes) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    req.write(Buffer.alloc(64 * 1024, 'a'));
  });
}

/** A sample of the Prometheus text: the value of the unlabelled series `name`. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/**
 * A scrape, given up after 10 s as Prometheus gives one up: a connection the cluster hands to a
 * worker at the moment it dies is never answered, and the next scrape reaches a live one.
 */
async function scrape(url: string): Promise<string> {
  const res = await fresh(url, '/metrics', {
    headers: { authorization: `Bearer ${TOKEN}` },
    giveUpMs: 10_000,
  });
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status} ${res.text}`);
  return res.text;
}

describe.runIf((await redisAvailable()) && (await postgresAnswers()))(
  'WEB_CONCURRENCY=2: two workers behind one port',
  () => {
    const prefix = uniqueName('tgcluster');
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    let server: ServerProcess;
    let stopped = false;
    beforeAll(async () => {
      database = await createScratchDatabase();
      server = await spawnServer(
        {
          WEB_CONCURRENCY: '2',
          DATABASE_URL: database.url,
          REDIS_URL: TEST_REDIS_URL,
          REDIS_PREFIX: prefix,
          SESSION_SECRET: SECRET,
          METRICS_TOKEN: TOKEN,
          MODERATION_IMAGE_CHECK: 'off',
        },
        { preload: ['broken-channel.ts'] },
      );
    });
    // A failure here is usually the cluster's own: show what the primary and its workers said.
    beforeEach(({ onTestFailed }) => {
      onTestFailed(() =>
        console.error(`the cluster's output:\n${server?.output().slice(-20_000)}`),
      );
    });
    afterAll(async () => {
      if (server && !stopped) await server.stop();
      await dropRedisPrefix(prefix);
      await database?.drop();
    });

    /** Opens game sockets (a new connection each) until one is held by each worker. */
    async function socketsOnBothWorkers(cookie: string): Promise<Socket[]> {
      const opened: Socket[] = [];
      const owners = new Set<number>();
      for (let i = 0; i < 8 && owners.size < 2; i += 1) {
        const socket = await connectGame(server.url, cookie);
        opened.push(socket);
        owners.add(ownerOf(socket.io.engine.id));
      }
      return opened;
    }

    it('forks two workers that both serve requests and game sockets; /metrics sums them', async () => {
      const pids = workerPids(server.child.pid!);
      expect(pids).toHaveLength(2);
      expect(pids).not.toContain(server.child.pid);

      const handshakeOwners = new Set<number>();
      let handshakes = 0;
      for (; handshakes < 8 && handshakeOwners.size < 2; handshakes += 1) {
        const handshake = await fresh(server.url, '/socket.io/?EIO=4&transport=polling');
        expect(handshake.status).toBe(200);
        handshakeOwners.add(ownerOf(JSON.parse(handshake.text.slice(1)).sid));
      }
      expect(handshakeOwners.size).toBe(2);

      // Each worker hears the others on each namespace (a push to a room no socket is in reaches
      // every subscribed worker, and each ignores it).
      const redis = new Redis(TEST_REDIS_URL);
      try {
        for (const namespace of ['/', '/live']) {
          const channel = `${prefix}:socket.io#${namespace}#no-such-room#`;
          expect(await redis.publish(channel, 'nothing'), namespace).toBe(2);
        }
      } finally {
        redis.disconnect();
      }

      const player = await makePlayer(server.url, 'DE');
      const sockets = await socketsOnBothWorkers(player.cookie);
      try {
        const [watcher] = sockets;
        const tapper = sockets.find(
          (s) => ownerOf(s.io.engine.id) !== ownerOf(watcher.io.engine.id),
        );
        expect(tapper).toBeDefined();
        // A tap on one worker reaches a socket of the other (through the Redis adapter).
        const seen: unknown[] = [];
        const record = (push: unknown) => seen.push(push);
        watcher.on(gameEvents.boards, record);
        const pushed = nextBoard(watcher, 'users', (users) =>
          users.some((u) => u.id === player.user.id && u.totalPoints === 6),
        );
        expect(await sendTaps(tapper!, player.session.id, 6)).toMatchObject({ ok: true });
        await pushed.catch(async (error: unknown) => {
          // What the watcher got instead, and what the board says: which side lost the push.
          const board = await fresh(server.url, '/api/leaderboard/users');
          throw new Error(
            `${String(error)}; the watcher (worker ${ownerOf(watcher.io.engine.id)}, connected: ${watcher.connected}) got ${JSON.stringify(seen)}; GET /api/leaderboard/users: ${board.status} ${board.text}`,
          );
        });
        watcher.off(gameEvents.boards, record);

        // Whichever worker answers the scrape, it speaks for the machine.
        for (let i = 0; i < 2; i += 1) {
          const text = await scrape(server.url);
          expect(sample(text, 'tapgram_cluster_workers')).toBe(2);
          // The handshakes' sessions count until they time out, with the game sockets.
          expect(sample(text, 'tapgram_sockets_connected')).toBe(handshakes + sockets.length);
        }
      } finally {
        for (const socket of sockets) socket.disconnect();
      }
    });

    it('carries a long-polling session whichever worker each of its requests reaches', async () => {
      const handshake = await fresh(server.url, '/socket.io/?EIO=4&transport=polling');
      const sid = JSON.parse(handshake.text.slice(1)).sid as string;
      const session = `/socket.io/?EIO=4&transport=polling&sid=${encodeURIComponent(sid)}`;
      // Four requests on new connections: the workers take turns, so the other worker gets some
      // of them, and without routing would answer 400 Session ID unknown.
      const connected = await fresh(server.url, session, { method: 'POST', body: '40' });
      expect(connected).toEqual({ status: 200, text: 'ok' });
      const answer = await fresh(server.url, session);
      expect(answer.status).toBe(200);
      expect(answer.text).toMatch(/^40\{"sid":/);
      expect(await fresh(server.url, session, { method: 'POST', body: '41' })).toEqual({
        status: 200,
        text: 'ok',
      });
      expect(await fresh(server.url, session, { method: 'POST', body: '1' })).toEqual({
        status: 200,
        text: 'ok',
      });
      // A session of no worker is answered as engine.io answers an unknown one.
      expect(await fresh(server.url, '/socket.io/?EIO=4&transport=polling&sid=999.nobody')).toEqual(
        { status: 400, text: JSON.stringify({ code: 1, message: 'Session ID unknown' }) },
      );

      // Polling sessions move to WebSocket when they can, whichever worker the upgrade reaches.
      for (let i = 0; i < 4; i += 1) {
        const upgrading = io(server.url, {
          transports: ['polling', 'websocket'],
          reconnection: false,
          forceNew: true,
        });
        try {
          const upgraded = new Promise<string>((resolve) =>
            upgrading.io.engine.once('upgrade', (transport: { name: string }) =>
              resolve(transport.name),
            ),
          );
          await new Promise<void>((resolve, reject) => {
            upgrading.once('connect', () => resolve());
            upgrading.once('connect_error', reject);
          });
          expect(await upgraded).toBe('websocket');
        } finally {
          upgrading.disconnect();
        }
      }

      // A client that can only poll (the game screen's fallback) taps and is answered.
      const player = await makePlayer(server.url, 'IT');
      const polling = io(server.url, {
        transports: ['polling'],
        extraHeaders: { Cookie: player.cookie },
        reconnection: false,
        forceNew: true,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          polling.once('connect', () => resolve());
          polling.once('connect_error', reject);
        });
        for (let batch = 1; batch <= 3; batch += 1) {
          expect(await sendTaps(polling, player.session.id, 2, batch)).toMatchObject({ ok: true });
        }
        expect(polling.connected).toBe(true);
      } finally {
        polling.disconnect();
      }
    });

    it('answers a polling request for a session no worker holds at once, without reading its body', async () => {
      const handshake = await fresh(server.url, '/socket.io/?EIO=4&transport=polling');
      const worker = ownerOf(JSON.parse(handshake.text.slice(1)).sid);
      const polling = (sid: string) => `/socket.io/?EIO=4&transport=polling&sid=${sid}`;
      const unknown = {
        status: 400,
        text: JSON.stringify({ code: 1, message: 'Session ID unknown' }),
      };
      const sids = [
        // A worker that does not exist; an id of no form the workers make; a live worker's
        // session that is not open. Twice each, so that both workers take each kind.
        `999.${'a'.repeat(20)}`,
        'nobody',
        `${worker}.x`,
        `${worker}.${'b'.repeat(20)}`,
      ];
      for (const sid of [...sids, ...sids]) {
        expect(await unfinishedPost(server.url, polling(sid), 2_000_000), sid).toEqual(unknown);
      }

      // A session's large message still reaches it whichever worker each request reaches.
      const sid = JSON.parse(handshake.text.slice(1)).sid as string;
      const session = polling(encodeURIComponent(sid));
      expect(await fresh(server.url, session, { method: 'POST', body: '40' })).toEqual({
        status: 200,
        text: 'ok',
      });
      const large = `42["no-such-event","${'x'.repeat(300_000)}"]`;
      for (let i = 0; i < 4; i += 1) {
        expect(await fresh(server.url, session, { method: 'POST', body: large })).toEqual({
          status: 200,
          text: 'ok',
        });
      }
      const answer = await fresh(server.url, session);
      expect(answer.status).toBe(200);
      expect(answer.text).toMatch(/^40\{"sid":/);
    });

    it("outlives a failed write on a worker's channel (a message to a worker that just died)", async () => {
      const before = workerPids(server.child.pid!);
      process.kill(server.child.pid!, 'SIGUSR2');
      await expect.poll(() => server.output(), POLL).toContain('channels failed');
      // Heard and logged, or the primary's end (then the exit code is not null).
      await expect
        .poll(
          () =>
            server.output().includes("a worker's channel failed") || server.child.exitCode !== null,
          POLL,
        )
        .toBe(true);
      expect(server.child.exitCode).toBeNull();
      expect((await fresh(server.url, '/healthz')).status).toBe(200);
      expect(workerPids(server.child.pid!)).toEqual(before);
    });

    it('starts another worker when one dies', async () => {
      const before = workerPids(server.child.pid!);
      process.kill(before[0], 'SIGKILL');
      await expect
        .poll(async () => {
          const text = await scrape(server.url);
          return [
            sample(text, 'tapgram_cluster_worker_restarts_total'),
            sample(text, 'tapgram_cluster_workers'),
          ];
        }, POLL)
        .toEqual([1, 2]);
      const after = workerPids(server.child.pid!);
      expect(after).toHaveLength(2);
      expect(after).not.toContain(before[0]);
      expect(after).toContain(before[1]);
    }, 120_000);

    it('stops both workers on SIGTERM, exits 0 and keeps every acknowledged tap', async () => {
      const players: Player[] = [];
      for (let i = 0; i < 4; i += 1) players.push(await makePlayer(server.url, 'ES'));
      const acknowledged = new Map<string, number>();
      const sockets = await Promise.all(players.map((p) => connectGame(server.url, p.cookie)));
      expect(new Set(sockets.map((s) => ownerOf(s.io.engine.id))).size).toBe(2);
      await Promise.all(
        players.map(async (player, i) => {
          for (let batch = 1; batch <= 3; batch += 1) {
            const ack = await sendTaps(sockets[i], player.session.id, 5, batch);
            expect(ack).toMatchObject({ ok: true });
            acknowledged.set(player.user.id, (acknowledged.get(player.user.id) ?? 0) + 5);
          }
        }),
      );
      stopped = true;
      expect(await server.stop()).toBe(0);

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string; total_points: string }>(
          'SELECT id, total_points FROM game_users WHERE id = ANY($1)',
          [[...acknowledged.keys()]],
        );
        expect(new Map(rows.map((row) => [row.id, Number(row.total_points)]))).toEqual(
          acknowledged,
        );
      } finally {
        await client.end();
      }
    });
  },
);

describe.runIf((await redisAvailable()) && (await postgresAnswers()))(
  'WEB_CONCURRENCY=2 with METRICS_PORT and REQUEST_TIMEOUT_SECONDS=1',
  () => {
    const prefix = uniqueName('tgcluster');
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    let server: ServerProcess;
    let metricsPort: number;
    beforeAll(async () => {
      database = await createScratchDatabase();
      metricsPort = await freePort();
      server = await spawnServer({
        WEB_CONCURRENCY: '2',
        HOST: '0.0.0.0',
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: SECRET,
        METRICS_PORT: String(metricsPort),
        METRICS_TOKEN: TOKEN,
        REQUEST_TIMEOUT_SECONDS: '1',
        // A long-poll is held until the next ping: 4 s, four times the bound.
        CHANNEL_PING_SECONDS: '4',
        MODERATION_IMAGE_CHECK: 'off',
      });
    });
    afterAll(async () => {
      await server?.stop();
      await dropRedisPrefix(prefix);
      await database?.drop();
    });

    it("serves the machine's metrics from the primary, on loopback only whatever HOST is", async () => {
      const text = await scrape(`http://127.0.0.1:${metricsPort}`);
      expect(sample(text, 'tapgram_cluster_workers')).toBe(2);
      // Every 127.x address reaches this machine's loopback; one bound to 127.0.0.1 answers only there.
      const elsewhere = (port: number | string) => `http://127.0.0.2:${port}`;
      expect((await fresh(elsewhere(new URL(server.url).port), '/healthz')).status).toBe(200);
      await expect(fresh(elsewhere(metricsPort), '/metrics')).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    });

    it("cuts requests that trickle in, on the workers' port and the primary's metrics port", async () => {
      const answers = await Promise.all([
        trickle(server.url, slowBody('/api/tap'), ' '),
        trickle(server.url, slowHeaders('/api/leaderboard/users'), 'x-pad: 1\r\n'),
        trickle(`http://127.0.0.1:${metricsPort}`, slowHeaders('/metrics'), 'x-pad: 1\r\n'),
      ]);
      for (const answer of answers) expect(answer).toMatch(TIMED_OUT);
    });

    it('keeps a long-polling game channel open past the bound, whichever worker holds it', async () => {
      const player = await makePlayer(server.url, 'PT');
      const polling = await channelOver(server.url, player.cookie, ['polling']);
      try {
        await nextPing(polling);
        expect(await sendTaps(polling, player.session.id, 2, 1)).toMatchObject({ ok: true });
        expect(polling.connected).toBe(true);
      } finally {
        polling.disconnect();
      }
    }, 90_000);
  },
);

/** Starts the backend entry and waits for it to exit, with what it wrote. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: BACKEND_DIR,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('WEB_CONCURRENCY above 1 without shared services', () => {
  it('refuses to start without Redis, in one line saying what to set', async () => {
    const { code, output } = await runToExit({
      WEB_CONCURRENCY: '2',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: '',
    });
    expect(code).toBe(1);
    expect(output).toBe(
      "Invalid configuration: REDIS_URL (unset): is required with WEB_CONCURRENCY above 1 (2 workers): the workers share the game's counters, limits and pushes through Redis; set REDIS_URL, or WEB_CONCURRENCY=1\n",
    );
  });

  it('refuses to start on the embedded Postgres, naming DATABASE_URL', async () => {
    const { code, output } = await runToExit({
      WEB_CONCURRENCY: '2',
      DATABASE_URL: '',
      REDIS_URL: TEST_REDIS_URL,
    });
    expect(code).toBe(1);
    expect(output).toBe(
      'Invalid configuration: DATABASE_URL (unset): is required with WEB_CONCURRENCY above 1 (2 workers): the embedded Postgres opens in one process only; set a PostgreSQL URL, or WEB_CONCURRENCY=1\n',
    );
  });
});
