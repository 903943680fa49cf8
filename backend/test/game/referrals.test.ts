import {
  bonusHistorySchema,
  friendsSchema,
  gameUserSchema,
  invitationsSchema,
  inviteSchema,
  referralCancelReasons,
  referralEvidenceSchema,
  referralRestoreReasons,
  referralWaitingReason,
  type Invitations,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { expectAnswer } from '../helpers/answers';
import type { Account } from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makePlayer, makeUsername, tap, type Player } from './builders';
import { storageModes } from './modes';

const TAPS = 10;
const BONUS = 500;
const env = {
  REFERRAL_TAPS: String(TAPS),
  REFERRAL_DAYS: '2',
  REFERRAL_DAILY_CAP: '1',
  REFERRAL_BONUS: String(BONUS),
  // The payments here are those the players' reads make; the background look is the same path.
  REFERRAL_CHECK_MS: '3600000',
  FLUSH_INTERVAL_MS: '50',
};

/** A new player created from an invite link, as the game screen sends it. */
async function makeInvitee(url: string, ref: string): Promise<Player> {
  const created = await request(url)
    .post('/api/users')
    .send({ username: makeUsername('i'), country: 'GB', ref });
  expect(created.status).toBe(201);
  const cookie = String(created.headers['set-cookie']).split(';')[0];
  const session = await request(url)
    .post('/api/sessions')
    .set('Cookie', cookie)
    .send({ userId: created.body.id });
  return { user: created.body, session: session.body, cookie };
}

describe.each(storageModes)('invitations and the referral bonus (%s mode)', (mode) => {
  let server: TestServer;
  /** A second node on the same database (and Redis). */
  let other: TestServer;
  let admin: Account;
  beforeAll(async () => {
    server = await startTestServer({ mode, env });
    other = await startTestServer({
      mode,
      env,
      databaseUrl: server.databaseUrl,
      redisPrefix: server.redisPrefix,
    });
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await other?.stop();
    await server?.stop();
  });

  const sql = (text: string, params: unknown[]) => server.db.pool.query(text, params);

  async function codeOf(player: Player): Promise<string> {
    const res = await request(server.url)
      .get(`/api/users/${player.user.id}/invite`)
      .set('Cookie', player.cookie);
    expect(res.status).toBe(200);
    return expectAnswer(inviteSchema, res.body).code;
  }

  async function invitationsOf(player: Player, url = server.url): Promise<Invitations> {
    const res = await request(url)
      .get(`/api/users/${player.user.id}/invitations`)
      .set('Cookie', player.cookie);
    expect(res.status).toBe(200);
    return expectAnswer(invitationsSchema, res.body);
  }

  async function pointsOf(player: Player) {
    const res = await request(server.url).get(`/api/users/${player.user.id}`);
    return expectAnswer(gameUserSchema, res.body);
  }

  /** Taps yesterday (written as the flush writes a day), so that the invitee played two days. */
  async function playedYesterday(player: Player, taps: number) {
    await sql(
      `INSERT INTO game_daily_taps (user_id, day, taps)
       VALUES ($1, floor(extract(epoch FROM now()) / 86400)::int - 1, $2)`,
      [player.user.id, taps],
    );
  }

  /** Taps today, once Postgres holds them (at once without Redis, after a flush with it). */
  async function playToday(player: Player, count: number, total: number) {
    expect((await tap(server.url, player, { count })).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await sql(
              `SELECT taps::int FROM game_daily_taps
                WHERE user_id = $1 AND day = floor(extract(epoch FROM now()) / 86400)::int`,
              [player.user.id],
            )
          ).rows[0]?.taps,
      )
      .toBe(total);
  }

  it('records an invitation once, and makes the two friends', async () => {
    const inviter = await makePlayer(server.url);
    const code = await codeOf(inviter);
    expect(await codeOf(inviter)).toBe(code);
    const invitee = await makeInvitee(server.url, code.toUpperCase());
    const { invitations } = await invitationsOf(inviter);
    expect(invitations).toEqual([
      expect.objectContaining({
        invitee: { id: invitee.user.id, username: invitee.user.username },
        state: 'joined',
        taps: 0,
      }),
    ]);
    const friends = await request(other.url)
      .get(`/api/users/${invitee.user.id}/friends`)
      .set('Cookie', invitee.cookie);
    expect(expectAnswer(friendsSchema, friends.body)).toMatchObject({
      friends: [{ id: inviter.user.id }],
      inviter: { id: inviter.user.id },
    });
    // Someone else's invitations are theirs alone.
    const foreign = await request(server.url)
      .get(`/api/users/${inviter.user.id}/invitations`)
      .set('Cookie', invitee.cookie);
    expect(foreign.status).toBe(403);
  });

  it('creates the player and records nothing for a malformed or unknown code', async () => {
    const inviter = await makePlayer(server.url);
    await codeOf(inviter);
    for (const ref of ['not a code', 'zzzzzzzz', '<script>', '']) {
      await makeInvitee(server.url, ref);
    }
    expect((await invitationsOf(inviter)).invitations).toEqual([]);
  });

  it('counts an invitation once when the create is sent twice at once', async () => {
    const inviter = await makePlayer(server.url);
    const ref = await codeOf(inviter);
    const body = { username: makeUsername('r'), country: 'GB', ref };
    const answers = await Promise.all([
      request(server.url).post('/api/users').send(body),
      request(other.url).post('/api/users').send(body),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect((await invitationsOf(inviter)).invitations).toHaveLength(1);
  });

  it('pays both sides once at the threshold, not before, in points only', async () => {
    const inviter = await makePlayer(server.url);
    const invitee = await makeInvitee(server.url, await codeOf(inviter));
    await playedYesterday(invitee, 4);
    await playToday(invitee, 5, 5);
    const before = await invitationsOf(inviter);
    expect(before.invitations[0]).toMatchObject({ state: 'playing', taps: 9, days: 2 });
    expect((await pointsOf(inviter)).totalPoints).toBe(0);

    await playToday(invitee, 1, 6);
    // Both nodes read at once: one payment.
    const [a, b] = await Promise.all([invitationsOf(inviter), invitationsOf(invitee, other.url)]);
    const after = a.invitations[0].state === 'paid' ? a : await invitationsOf(inviter);
    expect(b.invitations).toEqual([]);
    expect(after.invitations[0]).toMatchObject({ state: 'paid', reason: null });
    await invitationsOf(inviter, other.url);
    expect(await pointsOf(inviter)).toMatchObject({ totalPoints: BONUS, totalTaps: 0 });
    expect(await pointsOf(invitee)).toMatchObject({ totalPoints: 6 + BONUS, totalTaps: 6 });
    const rows = await sql(
      `SELECT count(*)::int AS n FROM game_referral_bonuses b
      JOIN game_invitations i ON i.id = b.invitation_id WHERE i.inviter_id = $1`,
      [inviter.user.id],
    );
    expect(rows.rows[0].n).toBe(2);
    // The season's board ranks by points: the bonus is on it.
    const season = (await request(server.url).get('/api/seasons/current/users?limit=1000'))
      .body as { id: string; totalPoints: number }[];
    expect(season.find((row) => row.id === inviter.user.id)?.totalPoints).toBe(BONUS);
    // The payout export explains the points: taps, check-in bonuses, referral bonuses apart.
    const csv = (await admin.agent.get('/api/admin/game/leaderboard.csv')).text.split('\n');
    const row = csv.find((line) => line.includes(inviter.user.id))!.split(',');
    expect(row.slice(4, 9)).toEqual([`${BONUS}`, '0', '0', `${BONUS}`, `${BONUS}`]);
    const history = await request(server.url)
      .get(`/api/users/${invitee.user.id}/bonuses`)
      .set('Cookie', invitee.cookie);
    expect(expectAnswer(bonusHistorySchema, history.body)).toEqual([
      expect.objectContaining({ kind: 'referral', state: 'added', points: BONUS }),
    ]);
  });

  it("defers a bonus beyond the inviter's daily cap, and pays it on a later day", async () => {
    const inviter = await makePlayer(server.url);
    const code = await codeOf(inviter);
    const invitees = [await makeInvitee(server.url, code), await makeInvitee(server.url, code)];
    for (const invitee of invitees) {
      await playedYesterday(invitee, 5);
      await playToday(invitee, 5, 5);
    }
    const today = await invitationsOf(inviter);
    expect(today.invitations.map((i) => i.state).sort()).toEqual(['paid', 'waiting']);
    expect(today.invitations.find((i) => i.state === 'waiting')?.reason).toBe(
      referralWaitingReason,
    );
    expect((await pointsOf(inviter)).totalPoints).toBe(BONUS);
    // A day later (the inviter's count for today moved to yesterday), the second is paid.
    await sql(`UPDATE game_referral_days SET day = day - 1 WHERE inviter_id = $1`, [
      inviter.user.id,
    ]);
    const later = await invitationsOf(inviter, other.url);
    expect(later.invitations.map((i) => i.state)).toEqual(['paid', 'paid']);
    expect((await pointsOf(inviter)).totalPoints).toBe(2 * BONUS);
  });

  it('shows operators the evidence of an invitation farm', async () => {
    const inviter = await makePlayer(server.url);
    const code = await codeOf(inviter);
    // Every test request comes from one address: one network.
    const invitees = [];
    for (let i = 0; i < 3; i += 1) invitees.push(await makeInvitee(server.url, code));
    await playedYesterday(invitees[0], 5);
    await playToday(invitees[0], 5, 5);
    expect((await invitationsOf(inviter)).invitations.map((i) => i.state).sort()).toEqual([
      'joined',
      'joined',
      'paid',
    ]);
    const res = await admin.agent.get(`/api/admin/game/players/${inviter.user.id}/referrals`);
    const evidence = expectAnswer(referralEvidenceSchema, res.body);
    expect(evidence).toMatchObject({ invited: 3, paid: 1, cancelled: 0 });
    expect(evidence.reasons).toEqual([
      '3 invited players from one network',
      '1 of 1 paid invited players stopped right after the threshold',
    ]);
    expect(evidence.stopped).toEqual([
      expect.objectContaining({ id: invitees[0].user.id, taps: 10 }),
    ]);
    // Operators only.
    const player = await request(server.url)
      .get(`/api/admin/game/players/${inviter.user.id}/referrals`)
      .set('Cookie', inviter.cookie);
    expect(player.status).toBe(401);
  });

  it("cancels a frozen invitee's unpaid bonus for both sides, and pays nothing after", async () => {
    const inviter = await makePlayer(server.url);
    const invitee = await makeInvitee(server.url, await codeOf(inviter));
    await playedYesterday(invitee, 5);
    await playToday(invitee, 5, 5);
    const frozen = await admin.agent
      .post(`/api/admin/game/players/${invitee.user.id}/freeze`)
      .send({ reason: 'script' });
    expect(frozen.status).toBe(200);
    const reason = referralCancelReasons.inviteeFrozen('script');
    const { invitations } = await invitationsOf(inviter, other.url);
    expect(invitations[0]).toMatchObject({ state: 'cancelled', reason });
    expect((await pointsOf(inviter)).totalPoints).toBe(0);
    const detail = await admin.agent.get(`/api/admin/game/players/${inviter.user.id}`);
    expect(detail.body.actions).toEqual([
      expect.objectContaining({ action: 'cancel-referral', reason }),
    ]);
  });

  it("cancels a frozen inviter's unpaid bonus, with its reason in the audit", async () => {
    const inviter = await makePlayer(server.url);
    const invitee = await makeInvitee(server.url, await codeOf(inviter));
    await playedYesterday(invitee, 5);
    const frozen = await admin.agent
      .post(`/api/admin/game/players/${inviter.user.id}/freeze`)
      .send({ reason: 'invitation farm' });
    expect(frozen.status).toBe(200);
    const reason = referralCancelReasons.inviterFrozen('invitation farm');
    expect(frozen.body.actions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'cancel-referral', reason }),
        expect.objectContaining({ action: 'freeze', reason: 'invitation farm' }),
      ]),
    );
    const detail = await admin.agent.get(`/api/admin/game/players/${invitee.user.id}`);
    expect(detail.body.actions).toEqual([
      expect.objectContaining({ action: 'cancel-referral', reason }),
    ]);
    await playToday(invitee, 5, 5);
    const { invitations } = await invitationsOf(inviter);
    expect(invitations[0]).toMatchObject({ state: 'cancelled', reason });
    expect((await pointsOf(invitee)).totalPoints).toBe(5);
    const history = await request(server.url)
      .get(`/api/users/${invitee.user.id}/bonuses`)
      .set('Cookie', invitee.cookie);
    expect(history.body).toEqual([
      expect.objectContaining({ kind: 'referral', state: 'cancelled', points: 0, reason }),
    ]);
  });
  it('restores the bonus a freeze cancelled when the player is unfrozen, and pays it once, by the usual rules', async () => {
    const inviter = await makePlayer(server.url);
    const invitee = await makeInvitee(server.url, await codeOf(inviter));
    await playedYesterday(invitee, 5);
    await playToday(invitee, 5, 5);
    const freeze = (who: Player, reason: string) =>
      admin.agent.post(`/api/admin/game/players/${who.user.id}/freeze`).send({ reason });
    const unfreeze = (who: Player, reason: string) =>
      admin.agent.post(`/api/admin/game/players/${who.user.id}/unfreeze`).send({ reason });
    expect((await freeze(invitee, 'looked scripted')).status).toBe(200);
    expect((await freeze(inviter, 'many invitees')).status).toBe(200);
    // One side still frozen: it stays cancelled.
    expect((await unfreeze(invitee, 'a real person')).status).toBe(200);
    expect((await invitationsOf(inviter)).invitations[0]).toMatchObject({ state: 'cancelled' });
    // Neither frozen: pending again, then paid at the next look (here, the inviter's read).
    const lifted = await unfreeze(inviter, 'appeal upheld');
    expect(lifted.status).toBe(200);
    const reason = referralRestoreReasons.inviterUnfrozen('appeal upheld');
    expect(lifted.body.actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'restore-referral', reason })]),
    );
    const detail = await admin.agent.get(`/api/admin/game/players/${invitee.user.id}`);
    expect(detail.body.actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'restore-referral', reason })]),
    );
    const { invitations } = await invitationsOf(inviter, other.url);
    expect(invitations[0]).toMatchObject({ state: 'paid', reason: null });
    await expect.poll(async () => (await pointsOf(inviter)).totalPoints).toBe(BONUS);
    await expect.poll(async () => (await pointsOf(invitee)).totalPoints).toBe(5 + BONUS);
    // Once: another freeze and unfreeze touch a paid bonus no more.
    expect((await freeze(inviter, 'again')).status).toBe(200);
    expect((await unfreeze(inviter, 'again')).status).toBe(200);
    expect((await invitationsOf(inviter)).invitations[0]).toMatchObject({ state: 'paid' });
    expect((await pointsOf(inviter)).totalPoints).toBe(BONUS);
  });
});
