import { gameUserSchema, inviteSchema, leaderboardUserSchema } from '@tapgram/shared';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import {
  createScratchDatabase,
  dropRedisPrefix,
  scratchPool,
  postgresAnswers,
  redisAnswers,
  TEST_REDIS_URL,
  uniqueName,
} from '../../test-support/services';
import { expectAnswer } from '../helpers/answers';
import { makePlayer, makeUsername, tap, type Player } from './builders';

const DAILY_TAPS = 5;
const REFERRAL_TAPS = 10;
const REFERRAL_BONUS = 500;

/** Waits for the process to print `text` (its own words, not a guess at its timing). */
async function printed(server: ServerProcess, text: string): Promise<void> {
  await expect.poll(() => server.output(), { timeout: 30_000 }).toContain(text);
}

/**
 * In Redis mode a bonus is decided in Postgres, then added to the boards by a Redis script. A node
 * killed between the two (kill -9, frozen at the script) leaves the bonus to the next node: the
 * player's points on the boards end up equal to Postgres's, with the bonus counted once.
 */
describe.runIf((await postgresAnswers()) && (await redisAnswers()))(
  'bonuses across a node killed between Postgres and Redis',
  () => {
    let env: Record<string, string>;
    let db: pg.Pool;
    let drop: () => Promise<void>;
    let prefix: string;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      const scratch = await createScratchDatabase({ migrated: true });
      drop = scratch.drop;
      prefix = uniqueName('tgbonus');
      db = scratchPool(scratch.url, 2);
      env = {
        DATABASE_URL: scratch.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: 'bonus-crash-secret-bonus-crash-secret-0123',
        MODERATION_IMAGE_CHECK: 'off',
        SIGNUPS_PER_HOUR: '100000',
        FLUSH_INTERVAL_MS: '50',
        EVENTS_LEASE_SECONDS: '2',
        STREAK_DAILY_TAPS: String(DAILY_TAPS),
        REFERRAL_TAPS: String(REFERRAL_TAPS),
        REFERRAL_DAYS: '2',
        REFERRAL_BONUS: String(REFERRAL_BONUS),
        // Paid when the inviter reads their invitations: the test chooses the node.
        REFERRAL_CHECK_MS: '3600000',
      };
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await server.kill();
    });
    afterAll(async () => {
      await db?.end();
      await drop?.();
      if (prefix) await dropRedisPrefix(prefix);
    });

    /** A node; `stallAt`: it freezes at the first Redis command with an argument matching it. */
    async function start(stallAt?: RegExp): Promise<ServerProcess> {
      const server = await spawnServer(
        stallAt ? { ...env, TAPGRAM_TEST_STALL_REDIS: stallAt.source } : env,
        { preload: ['./stall-redis.ts'] },
      );
      servers.push(server);
      return server;
    }

    async function tapped(url: string, player: Player, count: number) {
      expect((await tap(url, player, { count })).status).toBe(200);
    }

    /** Where the player stands: the game's answer, the board's row, and Postgres's counters. */
    async function standing(url: string, player: Player) {
      const user = expectAnswer(
        gameUserSchema,
        (await request(url).get(`/api/users/${player.user.id}`)).body,
      );
      const board = expectAnswer(
        z.array(leaderboardUserSchema),
        (await request(url).get('/api/leaderboard/users')).body,
      );
      const { rows } = await db.query<{ points: number; taps: number }>(
        'SELECT total_points::int AS points, total_taps::int AS taps FROM game_users WHERE id = $1',
        [player.user.id],
      );
      return {
        points: user.totalPoints,
        taps: user.totalTaps,
        board: board.find((row) => row.id === player.user.id)?.totalPoints,
        postgres: rows[0],
      };
    }

    const expectStanding = (points: number, taps: number) => ({
      points,
      taps,
      board: points,
      postgres: { points, taps },
    });

    it.each(['kept', 'emptied'] as const)(
      'adds a check-in bonus once when the claiming node dies before Redis has it (Redis %s)',
      async (redis) => {
        const first = await start(/^bonusDay$/);
        const player = await makePlayer(first.url);
        await tapped(first.url, player, DAILY_TAPS);
        await expect
          .poll(async () => (await standing(first.url, player)).postgres.taps)
          .toBe(DAILY_TAPS);
        // The claim commits in Postgres, then the node freezes at the bonus script, and dies.
        void request(first.url)
          .post('/api/streak/claim')
          .set('Cookie', player.cookie)
          .send({ userId: player.user.id })
          .then(
            () => undefined,
            () => undefined,
          );
        await printed(first, 'stalled redis command');
        await first.kill();
        const { rows } = await db.query<{ points: number }>(
          'SELECT points::int FROM game_streak_claims WHERE user_id = $1',
          [player.user.id],
        );
        expect(rows).toHaveLength(1);
        const bonus = rows[0].points;
        // Emptied: the next node rebuilds Redis from Postgres, which holds the claim but not its points.
        if (redis === 'emptied') await dropRedisPrefix(prefix);

        const next = await start();
        await expect
          .poll(() => standing(next.url, player), { timeout: 30_000 })
          .toEqual(expectStanding(DAILY_TAPS + bonus, DAILY_TAPS));
        // Once: a claim asked again is refused, and another node's start adds nothing.
        const again = await request(next.url)
          .post('/api/streak/claim')
          .set('Cookie', player.cookie)
          .send({ userId: player.user.id });
        expect(again.status).toBe(409);
        await next.kill();
        const last = await start();
        await tapped(last.url, player, 1);
        await expect
          .poll(() => standing(last.url, player), { timeout: 30_000 })
          .toEqual(expectStanding(DAILY_TAPS + bonus + 1, DAILY_TAPS + 1));
        expect((await db.query('SELECT 1 FROM event_outbox')).rows).toEqual([]);
      },
      300_000,
    );

    it('adds both sides of a referral bonus once when the paying node dies before Redis has it', async () => {
      const first = await start(/^ref:/);
      const inviter = await makePlayer(first.url);
      const code = expectAnswer(
        inviteSchema,
        (
          await request(first.url)
            .get(`/api/users/${inviter.user.id}/invite`)
            .set('Cookie', inviter.cookie)
        ).body,
      ).code;
      const created = await request(first.url)
        .post('/api/users')
        .send({ username: makeUsername('i'), country: 'GB', ref: code });
      expect(created.status).toBe(201);
      const cookie = String(created.headers['set-cookie']).split(';')[0];
      const session = await request(first.url)
        .post('/api/sessions')
        .set('Cookie', cookie)
        .send({ userId: created.body.id });
      const invitee: Player = { user: created.body, session: session.body, cookie };
      // Played yesterday (as the flush writes a day) and today, up to the threshold.
      await db.query(
        `INSERT INTO game_daily_taps (user_id, day, taps)
         VALUES ($1, floor(extract(epoch FROM now()) / 86400)::int - 1, 1)`,
        [invitee.user.id],
      );
      await tapped(first.url, invitee, REFERRAL_TAPS);
      await expect
        .poll(async () => (await standing(first.url, invitee)).postgres.taps)
        .toBe(REFERRAL_TAPS);
      // The inviter's read pays the bonus in Postgres; the node freezes at its script, and dies.
      void request(first.url)
        .get(`/api/users/${inviter.user.id}/invitations`)
        .set('Cookie', inviter.cookie)
        .then(
          () => undefined,
          () => undefined,
        );
      await printed(first, 'stalled redis command');
      await first.kill();
      const { rows } = await db.query(
        'SELECT user_id FROM game_referral_bonuses WHERE invitation_id IN ' +
          '(SELECT id FROM game_invitations WHERE inviter_id = $1)',
        [inviter.user.id],
      );
      expect(rows).toHaveLength(2);

      const next = await start();
      await expect
        .poll(() => standing(next.url, inviter), { timeout: 30_000 })
        .toEqual(expectStanding(REFERRAL_BONUS, 0));
      await expect
        .poll(() => standing(next.url, invitee), { timeout: 30_000 })
        .toEqual(expectStanding(REFERRAL_TAPS + REFERRAL_BONUS, REFERRAL_TAPS));
      // Once: reading the invitations again pays nothing more, on a node started since.
      await next.kill();
      const last = await start();
      await request(last.url)
        .get(`/api/users/${inviter.user.id}/invitations`)
        .set('Cookie', inviter.cookie)
        .expect(200);
      await tapped(last.url, inviter, 1);
      await expect
        .poll(() => standing(last.url, inviter), { timeout: 30_000 })
        .toEqual(expectStanding(REFERRAL_BONUS + 1, 1));
      expect((await standing(last.url, invitee)).points).toBe(REFERRAL_TAPS + REFERRAL_BONUS);
      expect((await db.query('SELECT 1 FROM event_outbox')).rows).toEqual([]);
    }, 300_000);
  },
);
