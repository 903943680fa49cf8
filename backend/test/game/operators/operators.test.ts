import {
  messages,
  MILESTONE_POINTS,
  playerActionsSchema,
  playerDetailSchema,
  playersPageSchema,
  type OperatorPlayer,
  type PlayerDetail,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameKeys } from '../../../src/game/redis-keys';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { expectAnswer } from '../../helpers/answers';
import { makeAccount, type Account } from '../../lolgram/builders';
import { makeAdmin } from '../../lolgram/moderation/builders';
import { makeUsername, tap, type Player } from '../builders';
import { storageModes } from '../modes';
import { gameSockets, sendTaps } from '../socket-client';

const PLAYERS = '/api/admin/game/players';

type Client = Pick<ReturnType<typeof request.agent>, 'get' | 'post'>;
const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const TODAY = '2026-11-23';
const BURST = 400;

/** A player created from `ip` (the server trusts one proxy), with a session. */
async function playerFrom(url: string, ip: string, country = 'GB'): Promise<Player> {
  const created = await request(url)
    .post('/api/users')
    .set('X-Forwarded-For', ip)
    .send({ username: makeUsername('op'), country });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${created.text}`);
  const cookie = String(created.headers['set-cookie']).split(';')[0];
  const session = await request(url)
    .post('/api/sessions')
    .set('Cookie', cookie)
    .send({ userId: created.body.id });
  return { user: created.body, session: session.body, cookie };
}

describe.each(storageModes)('game operators (%s mode)', (mode) => {
  let server: TestServer;
  let clock = START;
  let admin: Account;
  let member: Account;
  let next = 1;
  const socketTo = gameSockets(() => server.url);
  /** A new address of its own for each player, so that only the network test shares one. */
  const ownAddress = () => `198.51.100.${next++}`;

  beforeAll(async () => {
    server = await startTestServer({
      mode,
      now: () => clock,
      env: {
        TRUST_PROXY: '1',
        TAP_RATE_PER_SECOND: '1',
        TAP_BURST: String(BURST),
        SUSPICION_REFUSED_TAPS: '300',
        SUSPICION_STREAK_MINUTES: '30',
        SUSPICION_MIN_BATCHES: '20',
        SUSPICION_NETWORK_PLAYERS: '3',
      },
    });
    admin = await makeAdmin(server);
    member = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Sends batches of these sizes over the game channel, the clock moved by each gap before. */
  async function play(player: Player, sizes: number[], gapsMs: number[]) {
    const socket = await socketTo(player.cookie);
    const acks = [];
    for (const [i, size] of sizes.entries()) {
      clock += gapsMs[i % gapsMs.length];
      acks.push(await sendTaps(socket, player.session.id, size, i + 1));
    }
    return acks;
  }

  async function find(username: string): Promise<OperatorPlayer> {
    const res = await admin.agent.get(PLAYERS).query({ q: username });
    expect(res.status).toBe(200);
    const page = expectAnswer(playersPageSchema, res.body);
    const player = page.players.find((p) => p.username === username);
    if (!player) throw new Error(`${username} not listed`);
    return player;
  }

  async function detail(id: string): Promise<PlayerDetail> {
    const res = await admin.agent.get(`${PLAYERS}/${id}`);
    expect(res.status).toBe(200);
    return expectAnswer(playerDetailSchema, res.body);
  }

  it('records a scripted cadence, refused taps and a long streak as play happens, with readable reasons', async () => {
    const scripted = await playerFrom(server.url, ownAddress());
    const human = await playerFrom(server.url, ownAddress());
    const hammer = await playerFrom(server.url, ownAddress());
    const marathon = await playerFrom(server.url, ownAddress());

    // Ten taps every second, exactly, thirty times.
    await play(scripted, Array<number>(30).fill(10), [1000]);
    // A person: sizes and gaps vary.
    await play(
      human,
      [3, 7, 5, 9, 2, 6, 8, 4, 6, 3, 7, 5, 2, 9, 4, 6, 3, 8, 5, 7, 4, 6],
      [800, 1500, 1100, 2300, 950, 1700],
    );
    // Four full batches fit the burst; the four after them are refused whole.
    const acks = await play(hammer, Array<number>(8).fill(100), [10]);
    expect(acks.filter((ack) => !ack.ok)).toHaveLength(4);
    // A batch a minute for forty minutes: never a pause of two.
    await play(
      marathon,
      [3, 5, 4, 6, 2, 5, 3, 6, 4, 2].flatMap((n) => [n, n + 1, n + 3, n]),
      [60_000],
    );

    await expect
      .poll(async () => (await find(scripted.user.username)).suspicion)
      .toEqual({
        score: 40,
        reasons: [
          'tapped at an even cadence today: 30 batches varying 0.0% in size and 0.0% in interval',
        ],
      });
    await expect
      .poll(async () => (await find(hammer.user.username)).suspicion)
      .toEqual({ score: 35, reasons: ['refused 400 taps today'] });
    expect((await find(hammer.user.username)).refusedTaps).toBe(400);
    await expect
      .poll(async () => (await find(marathon.user.username)).suspicion)
      .toEqual({ score: 30, reasons: ['tapped 39 min without a pause today'] });
    await expect.poll(async () => (await find(human.user.username)).totalPoints).toBe(119);
    expect((await find(human.user.username)).suspicion).toEqual({ score: 0, reasons: [] });

    const day = (await detail(scripted.user.id)).days.at(-1);
    expect(day).toEqual({
      day: TODAY,
      taps: 300,
      refused: 0,
      batches: 30,
      activeSeconds: 29,
      longestStreakSeconds: 29,
      sizeVariation: 0,
      intervalVariation: 0,
    });
    const humanDay = (await detail(human.user.id)).days.at(-1)!;
    expect(humanDay.sizeVariation).toBeGreaterThan(0.3);
    expect(humanDay.intervalVariation).toBeGreaterThan(0.3);

    // The suspicion order puts the script first, then the refused taps, then the streak.
    const order = expectAnswer(
      playersPageSchema,
      (await admin.agent.get(PLAYERS).query({ sort: 'suspicion', limit: 3 })).body,
    ).players.map((p) => p.username);
    expect(order).toEqual([scripted.user.username, hammer.user.username, marathon.user.username]);
    const byRefused = expectAnswer(
      playersPageSchema,
      (await admin.agent.get(PLAYERS).query({ sort: 'refused', limit: 1 })).body,
    );
    expect(byRefused.players[0].username).toBe(hammer.user.username);
  });

  it('counts the players created from one network, an IPv6 /64 as one', async () => {
    const same = [
      await playerFrom(server.url, '2001:db8:5:7::1'),
      await playerFrom(server.url, '2001:db8:5:7:abcd::9'),
      await playerFrom(server.url, '2001:db8:5:7::ff'),
    ];
    const neighbour = await playerFrom(server.url, '2001:db8:5:8::1');
    const page = await detail(same[0].user.id);
    expect(page.network.players).toBe(3);
    expect(page.network.others.map((o) => o.id).sort()).toEqual(
      [same[1].user.id, same[2].user.id].sort(),
    );
    expect((await find(same[1].user.username)).suspicion).toEqual({
      score: 25,
      reasons: ['3 players from one network'],
    });
    expect((await detail(neighbour.user.id)).network).toEqual({ players: 1, others: [] });
  });

  it('finds players by part of the name, sorts by points, pages, and refuses bad input', async () => {
    const first = await playerFrom(server.url, ownAddress());
    await play(first, [9, 9, 9], [5000]);
    const part = first.user.username.slice(3, 12).toUpperCase();
    await expect
      .poll(async () => {
        const res = await admin.agent.get(PLAYERS).query({ q: part, sort: 'points' });
        return res.body.players?.map((p: OperatorPlayer) => [p.username, p.totalPoints]);
      })
      .toEqual([[first.user.username, 27]]);
    // A search is text, not a pattern: % and _ match only themselves.
    expect((await admin.agent.get(PLAYERS).query({ q: '%' })).body.total).toBe(0);
    const page = await admin.agent.get(PLAYERS).query({ sort: 'points', limit: 2, offset: 1 });
    expect(page.body.players).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(3);

    expect((await admin.agent.get(PLAYERS).query({ sort: 'age' })).body).toEqual({
      error: 'sort must be one of: suspicion, points, refused',
    });
    expect((await admin.agent.get(PLAYERS).query({ limit: 1000 })).status).toBe(400);
    expect((await admin.agent.get(`${PLAYERS}/not-an-id`)).status).toBe(400);
    const unknown = await admin.agent.get(`${PLAYERS}/00000000-0000-4000-8000-000000000000`);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'Player not found' }]);
    const noReason = await admin.agent
      .post(`${PLAYERS}/${first.user.id}/freeze`)
      .send({ reason: '  ' });
    expect([noReason.status, noReason.body]).toEqual([400, { error: 'Give a reason' }]);
    expect((await admin.agent.post(`${PLAYERS}/${first.user.id}/freeze`).send({})).status).toBe(
      400,
    );
    // NUL cannot be stored: refused with the shared message, nothing frozen.
    const nul = await admin.agent
      .post(`${PLAYERS}/${first.user.id}/freeze`)
      .send({ reason: 'bot\u0000' });
    expect([nul.status, nul.body.error]).toEqual([400, messages.unstorableText]);
    expect((await admin.agent.get(PLAYERS).query({ q: 'a\u0000' })).status).toBe(400);
    const huge = await admin.agent
      .post(`${PLAYERS}/${first.user.id}/freeze`)
      .send({ reason: 'x'.repeat(501) });
    expect(huge.status).toBe(400);
    expect((await detail(first.user.id)).frozen).toBe(false);
  });

  it('lets only admins in: 401 for strangers, 403 for members, and writes only from this site', async () => {
    const target = await playerFrom(server.url, ownAddress());
    const calls = [
      (agent: Client) => agent.get(PLAYERS),
      (agent: Client) => agent.get(`${PLAYERS}/${target.user.id}`),
      (agent: Client) => agent.post(`${PLAYERS}/${target.user.id}/freeze`).send({ reason: 'x' }),
      (agent: Client) => agent.post(`${PLAYERS}/${target.user.id}/unfreeze`).send({ reason: 'x' }),
      (agent: Client) => agent.get('/api/admin/game/actions'),
      (agent: Client) => agent.get('/api/admin/game/leaderboard.csv'),
      (agent: Client) => agent.get('/api/admin/game/nothing'),
    ];
    for (const call of calls) {
      expect((await call(request(server.url))).status).toBe(401);
      expect((await call(member.agent)).status).toBe(403);
    }
    const forged = await admin.agent
      .post(`${PLAYERS}/${target.user.id}/freeze`)
      .set('Origin', 'https://evil.example')
      .send({ reason: 'forged' });
    expect(forged.status).toBe(403);
    expect((await detail(target.user.id)).frozen).toBe(false);
  });

  it('freezes a player off every board, the country total and the milestone, refuses their taps, and unfreezes them', async () => {
    const cheat = await playerFrom(server.url, ownAddress(), 'NZ');
    const honest = await playerFrom(server.url, ownAddress(), 'NZ');
    await play(cheat, [50, 50], [1000]);
    await play(honest, [20], [1000]);
    await givePoints(cheat, MILESTONE_POINTS);
    const otherNode =
      mode === 'redis'
        ? await startTestServer({
            mode,
            databaseUrl: server.databaseUrl,
            redisPrefix: server.redisPrefix,
          })
        : null;
    try {
      const nodes = [server.url, ...(otherNode ? [otherNode.url] : [])];
      const boards = async (url: string) => {
        const [users, countries, milestone] = await Promise.all([
          request(url).get('/api/leaderboard/users').query({ limit: 100 }),
          request(url).get('/api/leaderboard/countries'),
          request(url).get('/api/milestone/100k'),
        ]);
        return {
          listed: users.body.some((u: { id: string }) => u.id === cheat.user.id),
          nz: countries.body.find((c: { country: string }) => c.country === 'NZ')?.totalPoints,
          milestone: milestone.body.usersOver100k,
        };
      };
      for (const url of nodes) {
        await expect
          .poll(() => boards(url))
          .toEqual({ listed: true, nz: MILESTONE_POINTS + 20, milestone: 1 });
      }

      const frozen = await admin.agent
        .post(`${PLAYERS}/${cheat.user.id}/freeze`)
        .send({ reason: 'scripted taps' });
      expect(frozen.status).toBe(200);
      const page = expectAnswer(playerDetailSchema, frozen.body);
      expect([page.frozen, page.frozenReason]).toEqual([true, 'scripted taps']);
      // At once, on every node: no poll.
      for (const url of nodes) {
        expect(await boards(url)).toEqual({ listed: false, nz: 20, milestone: 0 });
      }
      const refused = await tap(server.url, cheat);
      expect([refused.status, refused.body]).toEqual([403, { error: 'This player is frozen' }]);
      const [ack] = await play(cheat, [5], [1000]);
      expect(ack).toMatchObject({ ok: false, status: 403, error: 'This player is frozen' });
      const again = await admin.agent
        .post(`${PLAYERS}/${cheat.user.id}/freeze`)
        .send({ reason: 'twice' });
      expect([again.status, again.body]).toEqual([409, { error: 'This player is frozen already' }]);

      const unfrozen = await admin.agent
        .post(`${PLAYERS}/${cheat.user.id}/unfreeze`)
        .send({ reason: 'appeal accepted' });
      expect(unfrozen.body.frozen).toBe(false);
      for (const url of nodes) {
        expect(await boards(url)).toEqual({
          listed: true,
          nz: MILESTONE_POINTS + 20,
          milestone: 1,
        });
      }
      expect((await tap(server.url, cheat)).status).toBe(200);

      // The audit trail: both actions, with the moderator and the reason, and it cannot be changed.
      const recent = expectAnswer(
        playerActionsSchema,
        (await admin.agent.get('/api/admin/game/actions')).body,
      );
      expect(
        recent.slice(0, 2).map(({ action, player, moderator, reason }) => ({
          action,
          player,
          moderator,
          reason,
        })),
      ).toEqual([
        {
          action: 'unfreeze',
          player: cheat.user.username,
          moderator: admin.user.username,
          reason: 'appeal accepted',
        },
        {
          action: 'freeze',
          player: cheat.user.username,
          moderator: admin.user.username,
          reason: 'scripted taps',
        },
      ]);
      expect((await detail(cheat.user.id)).actions.map((a) => a.action)).toEqual([
        'unfreeze',
        'freeze',
      ]);
      await expect(
        server.db.pool.query("UPDATE game_player_actions SET reason = 'nothing'"),
      ).rejects.toThrow(/append-only/);
      await expect(server.db.pool.query('DELETE FROM game_player_actions')).rejects.toThrow(
        /append-only/,
      );
      await expect(server.db.pool.query('TRUNCATE game_player_actions')).rejects.toThrow(
        /append-only/,
      );
    } finally {
      await otherNode?.stop();
    }
  });

  it('freezes and unfreezes a player who has no points yet', async () => {
    const idle = await playerFrom(server.url, ownAddress(), 'IS');
    const exported = async () =>
      (await admin.agent.get('/api/admin/game/leaderboard.csv')).text.includes(idle.user.id);
    expect(await exported()).toBe(true);

    const frozen = await admin.agent
      .post(`${PLAYERS}/${idle.user.id}/freeze`)
      .send({ reason: 'idle bot' });
    expect([frozen.status, frozen.body.frozen]).toEqual([200, true]);
    expect(await exported()).toBe(false);

    const unfrozen = await admin.agent
      .post(`${PLAYERS}/${idle.user.id}/unfreeze`)
      .send({ reason: 'a person after all' });
    expect([unfrozen.status, unfrozen.body.frozen]).toEqual([200, false]);
    expect(await exported()).toBe(true);
    expect((await tap(server.url, idle)).status).toBe(200);
    const again = await admin.agent
      .post(`${PLAYERS}/${idle.user.id}/unfreeze`)
      .send({ reason: 'twice' });
    expect([again.status, again.body]).toEqual([409, { error: 'This player is not frozen' }]);
  });

  it('exports the board without frozen players as CSV, equal points sharing a rank', async () => {
    const a = await playerFrom(server.url, ownAddress(), 'FR');
    const b = await playerFrom(server.url, ownAddress(), 'DE');
    const frozen = await playerFrom(server.url, ownAddress(), 'ES');
    for (const p of [a, b, frozen]) await givePoints(p, 10 * MILESTONE_POINTS);
    await admin.agent.post(`${PLAYERS}/${frozen.user.id}/freeze`).send({ reason: 'bot' });
    const res = await admin.agent.get('/api/admin/game/leaderboard.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="?tapgram-leaderboard-\d{4}-\d\d-\d\d\.csv"?$/,
    );
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe(
      'rank,id,username,country,points,taps,streak_bonus,referral_bonus,season_points,last_season_points,last_season_rank',
    );
    const top = [a, b].sort((x, y) => (x.user.id < y.user.id ? 1 : -1));
    // The points, then what they are made of (all taps here, no bonus), then the seasons'.
    const points = 10 * MILESTONE_POINTS;
    expect(lines.slice(1, 3).map((line) => line.split(',').slice(0, 8).join(','))).toEqual(
      top.map((p) => `1,${p.user.id},${p.user.username},${p.user.country},${points},${points},0,0`),
    );
    expect(res.text).not.toContain(frozen.user.id);
    const ranks = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ranks.every((rank, i) => i === 0 || rank >= ranks[i - 1])).toBe(true);
    const board = await request(server.url).get('/api/leaderboard/users').query({ limit: 100 });
    expect(lines.length - 1).toBe(board.body.length);
  });

  /**
   * Sets a player's points far beyond what a test could tap, where the store keeps them (the
   * milestone is at 100,000 points), as a flush would leave them.
   */
  async function givePoints(player: Player, points: number) {
    const { rows } = await server.db.pool.query<{ added: number; country: string }>(
      `UPDATE game_users u SET total_points = $2, total_taps = $2
         FROM game_users old WHERE u.id = $1 AND old.id = u.id
       RETURNING $2 - old.total_points AS added, u.country`,
      [player.user.id, points],
    );
    const [{ added, country }] = rows;
    await server.db.pool.query(
      `UPDATE game_countries SET total_points = total_points + $2, total_taps = total_taps + $2
        WHERE country = $1`,
      [country, added],
    );
    if (mode === 'redis') {
      // Redis is ahead of Postgres by the taps not flushed yet: its own figures give the step.
      const k = gameKeys(server.redisPrefix);
      const step = points - Number(await server.redis!.hget(k.user(player.user.id), 'points'));
      await server
        .redis!.multi()
        .hset(k.user(player.user.id), { points, taps: points })
        .zadd(k.users, points, player.user.id)
        .zincrby(k.countries, step, country)
        .hincrby(k.countryTaps, country, step)
        .exec();
    }
  }
});
