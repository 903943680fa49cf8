import { gameEvents, type PlayerFrozenPush } from '@tapgram/shared';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../../test-support/server';
import type { Account } from '../../lolgram/builders';
import { makeAdmin } from '../../lolgram/moderation/builders';
import { makePlayer, tap, type Player } from '../builders';
import { gameSockets, nextEvent } from '../socket-client';

const PLAYERS = '/api/admin/game/players';

/**
 * Postgres commits a freeze or an unfreeze first, then Redis follows. Here Redis refuses the
 * second step (its own redis-server, whose scripts the test forbids for a moment): Postgres and
 * Redis must not stay apart. Two ways bring them together: the operator's retry, and the catch-up
 * that follows each flush; each is tested on a server where only it can act.
 */
describe.runIf(await redisAvailable())('freezing when Redis fails after Postgres', () => {
  let redis: RedisProcess;
  let control: Redis;
  beforeAll(async () => {
    redis = await startRedisProcess();
    control = new Redis(redis.url);
  });
  afterAll(async () => {
    control?.disconnect();
    await redis?.stop();
  });

  /** A server on the test's redis-server that flushes, and so catches up, every `flushMs`. */
  function serverFlushingEvery(flushMs: number): () => { server: TestServer; admin: Account } {
    let started: { server: TestServer; admin: Account } | undefined;
    beforeAll(async () => {
      const server = await startTestServer({
        mode: 'redis',
        env: { REDIS_URL: redis.url, FLUSH_INTERVAL_MS: String(flushMs) },
      });
      started = { server, admin: await makeAdmin(server) };
    });
    afterAll(async () => {
      await started?.server.stop();
    });
    return () => {
      if (!started) throw new Error('The server has not started');
      return started;
    };
  }

  /** Redis refuses every script while `step` runs, then takes them again. */
  async function withoutScripts<T>(step: () => Promise<T>): Promise<T> {
    await control.call('ACL', 'SETUSER', 'default', '-@scripting');
    try {
      return await step();
    } finally {
      await control.call('ACL', 'SETUSER', 'default', '+@scripting');
    }
  }

  /** Whether the board Redis serves lists the player. */
  const listed = async (server: TestServer, player: Player) =>
    (await request(server.url).get('/api/leaderboard/users').query({ limit: 1000 })).body.some(
      (u: { id: string }) => u.id === player.user.id,
    );
  const frozenInPostgres = async (server: TestServer, player: Player) =>
    (
      await server.db.pool.query(
        'SELECT frozen_at IS NOT NULL AS frozen FROM game_users WHERE id = $1',
        [player.user.id],
      )
    ).rows[0].frozen;

  describe('when the operator tries again', () => {
    // No flush within the test's time: the catch-up cannot complete the change before the retry.
    const started = serverFlushingEvery(3_600_000);

    it('completes the change, instead of answering 409', async () => {
      const { server, admin } = started();
      const cheat = await makePlayer(server.url, 'NO');
      expect((await tap(server.url, cheat)).status).toBe(200);
      expect(await listed(server, cheat)).toBe(true);

      const failed = await withoutScripts(() =>
        admin.agent.post(`${PLAYERS}/${cheat.user.id}/freeze`).send({ reason: 'bot' }),
      );
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(await frozenInPostgres(server, cheat)).toBe(true);
      expect(await listed(server, cheat)).toBe(true);

      const retried = await admin.agent
        .post(`${PLAYERS}/${cheat.user.id}/freeze`)
        .send({ reason: 'bot' });
      expect([retried.status, retried.body.frozen]).toEqual([200, true]);
      expect(await listed(server, cheat)).toBe(false);
      expect((await tap(server.url, cheat)).status).toBe(403);
      const again = await admin.agent
        .post(`${PLAYERS}/${cheat.user.id}/freeze`)
        .send({ reason: 'bot' });
      expect([again.status, again.body]).toEqual([409, { error: 'This player is frozen already' }]);
      // One action in the audit trail: the retry finished the first one.
      const actions = (await admin.agent.get(`${PLAYERS}/${cheat.user.id}`)).body.actions;
      expect(actions.map((a: { action: string }) => a.action)).toEqual(['freeze']);
    });
  });

  describe('when nobody tries again', () => {
    const started = serverFlushingEvery(200);
    const open = gameSockets(() => started().server.url);

    it("catches up by itself, and tells the player's screen then", async () => {
      const { server, admin } = started();
      const player = await makePlayer(server.url, 'NO');
      expect((await tap(server.url, player)).status).toBe(200);
      await admin.agent.post(`${PLAYERS}/${player.user.id}/freeze`).send({ reason: 'bot?' });
      expect(await listed(server, player)).toBe(false);
      const socket = await open(player.cookie);
      const told = nextEvent<PlayerFrozenPush>(socket, gameEvents.frozen);

      const failed = await withoutScripts(() =>
        admin.agent.post(`${PLAYERS}/${player.user.id}/unfreeze`).send({ reason: 'a person' }),
      );
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(await frozenInPostgres(server, player)).toBe(false);

      await expect.poll(() => listed(server, player)).toBe(true);
      expect(await told).toEqual({ frozen: false });
      expect((await tap(server.url, player)).status).toBe(200);
    });
  });
});
