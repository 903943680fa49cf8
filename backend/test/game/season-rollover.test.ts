import {
  DEFAULT_SEASON_CALENDAR,
  gameEvents,
  seasonAt,
  type CompactTapAck,
  type TapSyncAck,
} from '@tapgram/shared';
import pg from 'pg';
import request from 'supertest';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { runMigrations } from '../../src/core/migrate';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import {
  createScratchDatabase,
  dropRedisPrefix,
  scratchPool,
  TEST_REDIS_URL,
  uniqueName,
} from '../../test-support/services';
import { makeUsername, type Player } from './builders';
import { storageModes } from './modes';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const SEASON = { ...DEFAULT_SEASON_CALENDAR, lengthMs: 3000 };
const PLAYERS = 200;
/** Between two batches of one player (each sends its next once the last is answered). */
const PACE_MS = 400;

/**
 * A player tapping over the game channel as the game screen does: batches numbered in their
 * session, one at a time, each sent again under its number until it is answered (a dropped node,
 * a timeout), on whichever node is up. It knows the taps of every batch the server acknowledged.
 */
class Tapper {
  private socket: Socket | null = null;
  private seq = 0;
  /** The batch on its way: sent again as it is until an answer counts it. */
  private pending: { seq: number; count: number } | null = null;
  /** The taps of the batches the server acknowledged, 1 up to the last acknowledged. */
  acknowledged = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    readonly player: Player,
    /** A node that is up; none while the only one restarts. */
    private readonly url: () => string | undefined,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  /** Stops making new batches, once the one on its way is answered. */
  async finish(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.socket?.disconnect();
  }

  /** Where the server has the session's batches: counted and durable. */
  async numbers(): Promise<TapSyncAck> {
    const socket = await this.connected();
    return socket
      .timeout(10_000)
      .emitWithAck(gameEvents.sync, { sessionId: this.player.session.id });
  }

  private async run(): Promise<void> {
    for (;;) {
      if (!this.pending) {
        if (this.stopped) return;
        this.seq += 1;
        this.pending = { seq: this.seq, count: 1 + (this.seq % 5) };
      }
      try {
        const socket = await this.connected();
        const ack: CompactTapAck = await socket
          .timeout(5000)
          .emitWithAck(gameEvents.tap, { sessionId: this.player.session.id, ...this.pending });
        if (ack.ok && ack.seq >= this.pending.seq) {
          this.acknowledged += this.pending.count;
          this.pending = null;
        }
      } catch {
        // No answer (a node killed or blocked): the same batch goes again.
      }
      await new Promise((resolve) => setTimeout(resolve, PACE_MS * (0.5 + Math.random())));
    }
  }

  /** This player's socket, opened again on a node that is up when the last one dropped. */
  private async connected(): Promise<Socket> {
    while (!this.socket?.connected) {
      this.socket?.disconnect();
      const url = this.url();
      if (!url) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      const socket = io(url, {
        transports: ['websocket'],
        extraHeaders: { Cookie: this.player.cookie },
        reconnection: false,
        forceNew: true,
        auth: { acks: 'compact' },
      });
      const opened = await new Promise<boolean>((resolve) => {
        socket.once('connect', () => resolve(true));
        socket.once('connect_error', () => resolve(false));
        setTimeout(() => resolve(false), 5000);
      });
      if (opened) this.socket = socket;
      else {
        socket.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    return this.socket;
  }
}

/** Creates a player and their session, asking again while the server is busy (5xx). */
async function makePlayer(url: string, country: string): Promise<Player> {
  for (;;) {
    const created = await request(url)
      .post('/api/users')
      .send({ username: makeUsername('roll'), country });
    if (created.status >= 500) continue;
    expect(created.status).toBe(201);
    const cookie = String(created.headers['set-cookie']).split(';')[0];
    for (;;) {
      const session = await request(url)
        .post('/api/sessions')
        .set('Cookie', cookie)
        .send({ userId: created.body.id });
      if (session.status >= 500) continue;
      expect(session.status).toBe(201);
      return { user: created.body, session: session.body, cookie };
    }
  }
}

/** Waits for `check` to hold, reading it every half second. */
async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe.each(storageModes)('a season rollover under load (%s mode)', (mode) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 300_000);

  it(
    'archives every season once, loses and doubles no tap, when the node archiving is killed half-way',
    { timeout: 600_000 },
    async () => {
      const database = await createScratchDatabase();
      cleanups.push(database.drop);
      const pool = scratchPool(database.url, 4);
      cleanups.push(() => pool.end());
      await runMigrations(pool, createLogger('silent'));
      const prefix = uniqueName('tgroll');
      if (mode === 'redis') cleanups.push(() => dropRedisPrefix(prefix));

      const nodes = new Map<string, ServerProcess>();
      const start = async (name: string) => {
        const url = new URL(database.url);
        url.searchParams.set('application_name', name);
        const node = await spawnServer({
          DATABASE_URL: url.toString(),
          SESSION_SECRET: SECRET,
          SEASON_LENGTH: '3s',
          TAP_RATE_PER_SECOND: '1000',
          TAP_BURST: '1000',
          SIGNUPS_PER_HOUR: '100000',
          ...(mode === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {}),
        });
        nodes.set(name, node);
        cleanups.push(() => node.stop());
      };
      // Without Redis the game runs on one process at a time; with it, on two.
      await start('node-a');
      if (mode === 'redis') await start('node-b');
      const up = () => [...nodes.values()];

      const players = [];
      for (let i = 0; i < PLAYERS; i += 20) {
        const made = Array.from({ length: Math.min(20, PLAYERS - i) }, (_, j) =>
          makePlayer(up()[(i + j) % up().length].url, j % 2 ? 'FI' : 'EE'),
        );
        players.push(...(await Promise.all(made)));
      }
      const tappers = players.map(
        (player, i) => new Tapper(player, () => up()[i % Math.max(1, up().length)]?.url),
      );
      for (const tapper of tappers) tapper.start();
      await until('every player has tapped', async () =>
        tappers.every((tapper) => tapper.acknowledged > 0),
      );

      // The test holds the archived seasons' table: the next archive gets as far as recording
      // its season, after ranking every player, and waits there. The node archiving is killed.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      cleanups.push(() => holder.end());
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE game_seasons IN ACCESS EXCLUSIVE MODE');
      let archiving = '';
      await until('an archive waits for the test', async () => {
        const { rows } = await pool.query<{ name: string }>(
          `SELECT application_name AS name FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO game_seasons %'`,
        );
        archiving = rows[0]?.name ?? '';
        return archiving !== '';
      });
      const killed = nodes.get(archiving)!;
      nodes.delete(archiving);
      const exited = new Promise((resolve) => killed.child.once('exit', resolve));
      killed.child.kill('SIGKILL');
      await exited;
      if (mode === 'postgres') await start('node-c');
      await holder.query('COMMIT');

      // Play on through more rollovers, then stop and let every batch be answered.
      const cursor = async () =>
        (await pool.query<{ next: number }>('SELECT next_season AS next FROM game_season_cursor'))
          .rows[0].next;
      const before = tappers.map((tapper) => tapper.acknowledged);
      const resumed = seasonAt(Date.now(), SEASON);
      await until(
        'two seasons played since are archived',
        async () => (await cursor()) > resumed + 2,
      );
      await until('every player has tapped again', async () =>
        tappers.every((tapper, i) => tapper.acknowledged > before[i]),
      );
      await Promise.all(tappers.map((tapper) => tapper.finish()));
      await until('every batch is durable', async () => {
        const numbers = await Promise.all(tappers.map((tapper) => tapper.numbers()));
        return numbers.every((n) => n.ok && n.durableSeq === n.seq);
      });
      await until('every season that holds a point is archived', async () => {
        const { rows } = await pool.query<{ last: number | null }>(
          'SELECT max(season) AS last FROM game_season_scores',
        );
        return (rows[0].last ?? 0) < (await cursor());
      });

      // Every acknowledged tap is counted once: in the player's totals, and in one season.
      const { rows: totals } = await pool.query<{
        id: string;
        taps: number;
        points: number;
        seasons: number;
      }>(
        `SELECT u.id, u.total_taps::int AS taps, u.total_points::int AS points,
                coalesce((SELECT sum(s.points) FROM game_season_scores s WHERE s.user_id = u.id), 0)::int
                  AS seasons
           FROM game_users u`,
      );
      const byId = new Map(totals.map((row) => [row.id, row]));
      const taps = tappers.map((tapper) => tapper.acknowledged);
      console.log(
        `${mode}: ${taps.reduce((a, b) => a + b, 0)} taps acknowledged, ${Math.min(...taps)} to ${Math.max(...taps)} a player`,
      );
      for (const tapper of tappers) {
        const row = byId.get(tapper.player.user.id)!;
        expect(row.taps).toBe(tapper.acknowledged);
        expect([row.points, row.seasons]).toEqual([tapper.acknowledged, tapper.acknowledged]);
      }
      expect(tappers.every((tapper) => tapper.acknowledged > 0)).toBe(true);

      // Each season ended since the first start is archived once, and holds what it held then:
      // its ranked players' points add up to its recorded total.
      const { rows: seasons } = await pool.query<{
        id: number;
        players: number;
        points: number;
        ranked: number;
        sum: number;
        unranked: number;
      }>(
        `SELECT g.id, g.players, g.points::int AS points,
                count(s.final_rank)::int AS ranked,
                coalesce(sum(s.points) FILTER (WHERE s.final_rank IS NOT NULL), 0)::int AS sum,
                count(*) FILTER (WHERE s.final_rank IS NULL AND s.points > 0)::int AS unranked
           FROM game_seasons g LEFT JOIN game_season_scores s ON s.season = g.id
          GROUP BY g.id ORDER BY g.id`,
      );
      const ids = seasons.map((s) => s.id);
      expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
      expect(ids[ids.length - 1]).toBe((await cursor()) - 1);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      for (const season of seasons) {
        expect(season).toMatchObject({ ranked: season.players, sum: season.points, unranked: 0 });
      }
      const played = seasons.filter((s) => s.players > 0).length;
      expect(played).toBeGreaterThanOrEqual(2);
    },
  );
});
