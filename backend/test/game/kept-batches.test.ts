import {
  gameEvents,
  MAX_TAPS_PER_BATCH,
  type PlayerFrozenPush,
  type TapBatchAck,
} from '@tapgram/shared';
import { io } from 'socket.io-client';
import request from 'supertest';
import { TapBatches } from '../../../frontend/src/features/game/taps/tap-batches';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import type { Account } from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makePlayer, type Player } from './builders';
import { storageModes } from './modes';
import { gameSockets, nextEvent, sendTaps } from './socket-client';

const PLAYERS = '/api/admin/game/players';

/** A session of the player opened later, as the next visit opens one. */
async function nextVisit(url: string, player: Player): Promise<Player> {
  const session = await request(url)
    .post('/api/sessions')
    .set('Cookie', player.cookie)
    .send({ userId: player.user.id });
  expect(session.status).toBe(201);
  return { ...player, session: session.body };
}

const totalTaps = async (url: string, player: Player) =>
  (await request(url).get(`/api/users/${player.user.id}`)).body.totalTaps as number;

describe.each(storageModes)('taps kept on the device, sent on a later visit (%s)', (mode) => {
  let server: TestServer;
  let admin: Account;
  beforeAll(async () => {
    server = await startTestServer({
      mode,
      env: { FLUSH_INTERVAL_MS: '200', TAP_RATE_PER_SECOND: '20', TAP_BURST: '40' },
    });
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const open = gameSockets(() => server.url);

  it("counts a kept batch of the player's earlier session once, by its number", async () => {
    const first = await makePlayer(server.url);
    const socket = await open(first.cookie);
    expect((await sendTaps(socket, first.session.id, 5, 1)).ok).toBe(true);
    // The page closed with batch 2 kept; the next visit opens a new session and sends it first.
    const later = await nextVisit(server.url, first);
    const again = await open(first.cookie);
    const kept = await sendTaps(again, first.session.id, 7, 2);
    expect(kept).toMatchObject({ ok: true, accepted: 7, seq: 2 });
    expect((await sendTaps(again, later.session.id, 3, 1)).ok).toBe(true);
    // Sent again (its answer was lost): answered, not counted again.
    expect(await sendTaps(again, first.session.id, 7, 2)).toMatchObject({ ok: true, seq: 2 });
    expect(await sendTaps(again, first.session.id, 5, 1)).toMatchObject({ ok: true, seq: 2 });
    expect(await totalTaps(server.url, first)).toBe(15);
  });

  it("refuses another player's kept batch, and a batch without the player's cookie", async () => {
    const owner = await makePlayer(server.url);
    const thief = await makePlayer(server.url);
    const socket = await open(thief.cookie);
    const stolen = await sendTaps(socket, owner.session.id, 10, 1);
    expect(stolen).toMatchObject({ ok: false, status: 403 });
    const anonymous = await open();
    expect(await sendTaps(anonymous, owner.session.id, 10, 1)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await totalTaps(server.url, owner)).toBe(0);
    expect(await totalTaps(server.url, thief)).toBe(0);
  });

  it('refuses a batch for a session started more than a week ago (410), counting nothing', async () => {
    const player = await makePlayer(server.url);
    await server.db.pool.query(
      "UPDATE game_sessions SET created_at = now() - interval '8 days' WHERE id = $1",
      [player.session.id],
    );
    const socket = await open(player.cookie);
    const old = await sendTaps(socket, player.session.id, 10, 1);
    expect(old).toMatchObject({ ok: false, status: 410 });
    const posted = await request(server.url)
      .post('/api/tap')
      .set('Cookie', player.cookie)
      .send({ userId: player.user.id, sessionId: player.session.id, pointsPerTap: 1 });
    expect(posted.status).toBe(410);
    expect(posted.body).toEqual({ error: 'This session is too old to take taps' });
    expect(await totalTaps(server.url, player)).toBe(0);
  });

  it('refuses malformed kept batches with a 4xx, and unknown sessions with a 404', async () => {
    const player = await makePlayer(server.url);
    const socket = await open(player.cookie);
    const send = (batch: unknown): Promise<TapBatchAck> =>
      socket.timeout(10_000).emitWithAck(gameEvents.tap, batch);
    for (const batch of [
      { sessionId: player.session.id, count: MAX_TAPS_PER_BATCH + 1, seq: 1 },
      { sessionId: player.session.id, count: 5, seq: -1 },
      { sessionId: player.session.id, count: 5, seq: 1.5 },
      { sessionId: player.session.id, count: 0, seq: 1 },
      { sessionId: 'not-a-session', count: 5, seq: 1 },
      { sessionId: player.session.id, count: '5', seq: 1 },
    ]) {
      const answer = await send(batch);
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.status).toBeGreaterThanOrEqual(400);
      if (!answer.ok) expect(answer.status).toBeLessThan(500);
    }
    const unknown = await sendTaps(socket, '00000000-0000-4000-8000-000000000000', 5, 1);
    expect(unknown).toMatchObject({ ok: false, status: 404 });
    expect(await totalTaps(server.url, player)).toBe(0);
  });

  it("holds kept batches to the player's one allowance, across their sessions", async () => {
    const player = await makePlayer(server.url);
    const later = await nextVisit(server.url, player);
    const socket = await open(player.cookie);
    // A replaying client: the burst's worth in the earlier session, then more in the new one
    // and with fresh numbers in the earlier one, faster than the allowance refills.
    expect((await sendTaps(socket, player.session.id, 40, 1)).ok).toBe(true);
    const more = await sendTaps(socket, later.session.id, 40, 1);
    const fresh = await sendTaps(socket, player.session.id, 40, 99);
    expect([more, fresh].some((a) => !a.ok && a.status === 429)).toBe(true);
    const counted = [more, fresh].filter((a) => a.ok).length;
    expect(await totalTaps(server.url, player)).toBe(40 + 40 * counted);
  });

  it('sends a backlog kept on the device as the allowance refills: every tap counted once, none recorded as refused', async () => {
    const player = await makePlayer(server.url);
    const later = await nextVisit(server.url, player);
    const socket = io(server.url, {
      transports: ['websocket'],
      extraHeaders: { Cookie: player.cookie },
      forceNew: true,
    });
    let acknowledged = 0;
    const sender = new TapBatches({
      socket,
      postTap: () => Promise.reject(new Error('the socket stays connected in this test')),
      onSettled: ({ accepted, sent }) => {
        if (sent > 0) acknowledged += accepted;
      },
      onError: () => undefined,
    });
    // What a page closed offline left: a batch on its way, one answered (maybe lost), and 130
    // taps not yet numbered, three times the burst in all, in the earlier session.
    sender.restore({
      batches: [
        {
          userId: player.user.id,
          sessionId: player.session.id,
          seq: 1,
          count: 30,
          answered: false,
        },
        {
          userId: player.user.id,
          sessionId: player.session.id,
          seq: 2,
          count: 20,
          answered: false,
        },
      ],
      loose: [{ userId: player.user.id, sessionId: player.session.id, count: 130 }],
      posts: [],
      last: { [player.session.id]: 2 },
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // And the player taps on in the new session meanwhile.
    for (let i = 0; i < 10; i += 1) sender.tap(player.user.id, later.session.id);
    await expect.poll(() => sender.unconfirmed, { timeout: 20_000 }).toBe(0);
    expect(acknowledged).toBe(190);
    expect(await totalTaps(server.url, player)).toBe(190);
    sender.dispose();
    socket.disconnect();
    // Signals are written for every player in one statement: once a later player's batch is in,
    // whatever was recorded for this one is in too.
    const other = await makePlayer(server.url);
    const otherSocket = await open(other.cookie);
    expect((await sendTaps(otherSocket, other.session.id, 1, 1)).ok).toBe(true);
    const refused = async () =>
      (
        await server.db.pool.query<{ user_id: string; refused: string }>(
          `SELECT user_id, sum(refused) AS refused FROM game_player_days
            WHERE user_id = ANY($1) GROUP BY user_id`,
          [[player.user.id, other.user.id]],
        )
      ).rows;
    await expect.poll(async () => (await refused()).length, { timeout: 20_000 }).toBe(2);
    expect((await refused()).map((r) => Number(r.refused))).toEqual([0, 0]);
  });

  it("tells only the player's own browser that they are frozen", async () => {
    const player = await makePlayer(server.url);
    const other = await makePlayer(server.url);
    const own = await request(server.url)
      .get(`/api/users/${player.user.id}`)
      .set('Cookie', player.cookie);
    expect(own.body).toMatchObject({ id: player.user.id, frozen: false });
    const socket = await open(player.cookie);
    const pushed = nextEvent<PlayerFrozenPush>(socket, gameEvents.frozen, (p) => p.frozen);
    const freeze = await admin.agent
      .post(`${PLAYERS}/${player.user.id}/freeze`)
      .send({ reason: 'a bot?' });
    expect(freeze.status).toBeLessThan(300);
    expect(await pushed).toEqual({ frozen: true });
    const frozen = await request(server.url)
      .get(`/api/users/${player.user.id}`)
      .set('Cookie', player.cookie);
    expect(frozen.body.frozen).toBe(true);
    const seenByOthers = await request(server.url)
      .get(`/api/users/${player.user.id}`)
      .set('Cookie', other.cookie);
    expect(seenByOthers.body).not.toHaveProperty('frozen');
    const unfrozen = nextEvent<PlayerFrozenPush>(socket, gameEvents.frozen, (p) => !p.frozen);
    await admin.agent.post(`${PLAYERS}/${player.user.id}/unfreeze`).send({ reason: 'a person' });
    expect(await unfrozen).toEqual({ frozen: false });
  });
});
