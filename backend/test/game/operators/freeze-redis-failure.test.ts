import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../../test-support/server';
import type { Account } from '../../lolgram/builders';
import { makeAdmin } from '../../lolgram/moderation/builders';
import { makePlayer, tap, type Player } from '../builders';

const PLAYERS = '/api/admin/game/players';

/**
 * Postgres commits a freeze or an unfreeze first, then Redis follows. Here Redis refuses the
 * second step (its own redis-server, whose scripts the test forbids for a moment): Postgres and
 * Redis must not stay apart.
 */
describe.runIf(await redisAvailable())('freezing when Redis fails after Postgres', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let control: Redis;
  let admin: Account;
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({
      mode: 'redis',
      env: { REDIS_URL: redis.url, FLUSH_INTERVAL_MS: '200' },
    });
    control = new Redis(redis.url);
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    control?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

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
  const listed = async (player: Player) =>
    (await request(server.url).get('/api/leaderboard/users').query({ limit: 1000 })).body.some(
      (u: { id: string }) => u.id === player.user.id,
    );
  const frozenInPostgres = async (player: Player) =>
    (
      await server.db.pool.query(
        'SELECT frozen_at IS NOT NULL AS frozen FROM game_users WHERE id = $1',
        [player.user.id],
      )
    ).rows[0].frozen;

  it('completes the change when the operator tries again, instead of answering 409', async () => {
    const cheat = await makePlayer(server.url, 'NO');
    expect((await tap(server.url, cheat)).status).toBe(200);
    expect(await listed(cheat)).toBe(true);

    const failed = await withoutScripts(() =>
      admin.agent.post(`${PLAYERS}/${cheat.user.id}/freeze`).send({ reason: 'bot' }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await frozenInPostgres(cheat)).toBe(true);

    const retried = await admin.agent
      .post(`${PLAYERS}/${cheat.user.id}/freeze`)
      .send({ reason: 'bot' });
    expect([retried.status, retried.body.frozen]).toEqual([200, true]);
    expect(await listed(cheat)).toBe(false);
    expect((await tap(server.url, cheat)).status).toBe(403);
    const again = await admin.agent
      .post(`${PLAYERS}/${cheat.user.id}/freeze`)
      .send({ reason: 'bot' });
    expect([again.status, again.body]).toEqual([409, { error: 'This player is frozen already' }]);
    // One action in the audit trail: the retry finished the first one.
    const actions = (await admin.agent.get(`${PLAYERS}/${cheat.user.id}`)).body.actions;
    expect(actions.map((a: { action: string }) => a.action)).toEqual(['freeze']);
  });

  it('catches up by itself when nobody tries again', async () => {
    const player = await makePlayer(server.url, 'NO');
    expect((await tap(server.url, player)).status).toBe(200);
    await admin.agent.post(`${PLAYERS}/${player.user.id}/freeze`).send({ reason: 'bot?' });
    expect(await listed(player)).toBe(false);

    const failed = await withoutScripts(() =>
      admin.agent.post(`${PLAYERS}/${player.user.id}/unfreeze`).send({ reason: 'a person' }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await frozenInPostgres(player)).toBe(false);

    await expect.poll(() => listed(player)).toBe(true);
    expect((await tap(server.url, player)).status).toBe(200);
  });
});
