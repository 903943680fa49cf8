import {
  friendMessages,
  friendsBoardSchema,
  friendsSchema,
  MAX_PENDING_REQUESTS,
  type Friends,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { expectAnswer } from '../../helpers/answers';
import { makePlayer, tap, type Player } from '../builders';
import { storageModes } from '../modes';

describe.each(storageModes)('friends by username (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ask = (from: Player, username: string, cookie = from.cookie) =>
    request(server.url)
      .post('/api/friends/requests')
      .set('Cookie', cookie)
      .send({ userId: from.user.id, username });

  async function friendsOf(player: Player): Promise<Friends> {
    const res = await request(server.url)
      .get(`/api/users/${player.user.id}/friends`)
      .set('Cookie', player.cookie);
    expect(res.status).toBe(200);
    return expectAnswer(friendsSchema, res.body);
  }

  it('makes two players friends only once the other accepts, and either can end it', async () => {
    const [a, b] = [await makePlayer(server.url), await makePlayer(server.url)];
    const asked = await ask(a, b.user.username.toUpperCase());
    expect(asked.body).toEqual({
      status: 'requested',
      friend: { id: b.user.id, username: b.user.username },
    });
    // Asked again (a retry): the same answer, one request.
    expect((await ask(a, b.user.username)).body.status).toBe('requested');
    expect(await friendsOf(a)).toMatchObject({ friends: [], outgoing: [{ id: b.user.id }] });
    expect(await friendsOf(b)).toMatchObject({ friends: [], incoming: [{ id: a.user.id }] });

    const accepted = await request(server.url)
      .post(`/api/friends/requests/${a.user.id}/accept`)
      .set('Cookie', b.cookie)
      .send({ userId: b.user.id });
    expect(accepted.status).toBe(200);
    expect(await friendsOf(a)).toMatchObject({ friends: [{ id: b.user.id }], outgoing: [] });
    expect(await friendsOf(b)).toMatchObject({ friends: [{ id: a.user.id }], incoming: [] });
    expect((await ask(b, a.user.username)).body).toEqual({ error: friendMessages.already });

    const removed = await request(server.url)
      .delete(`/api/friends/${a.user.id}`)
      .set('Cookie', b.cookie)
      .send({ userId: b.user.id });
    expect(removed.status).toBe(200);
    expect((await friendsOf(a)).friends).toEqual([]);
    const again = await request(server.url)
      .delete(`/api/friends/${a.user.id}`)
      .set('Cookie', b.cookie)
      .send({ userId: b.user.id });
    expect([again.status, again.body]).toEqual([404, { error: friendMessages.notFriends }]);
  });

  it('makes friends at once when the other had asked first; a decline drops the request', async () => {
    const [a, b, c] = [
      await makePlayer(server.url),
      await makePlayer(server.url),
      await makePlayer(server.url),
    ];
    await ask(a, b.user.username);
    expect((await ask(b, a.user.username)).body.status).toBe('friends');
    await ask(c, a.user.username);
    const declined = await request(server.url)
      .delete(`/api/friends/requests/${c.user.id}`)
      .set('Cookie', a.cookie)
      .send({ userId: a.user.id });
    expect(declined.status).toBe(200);
    expect(await friendsOf(c)).toMatchObject({ friends: [], outgoing: [] });
    const accept = await request(server.url)
      .post(`/api/friends/requests/${c.user.id}/accept`)
      .set('Cookie', a.cookie)
      .send({ userId: a.user.id });
    expect([accept.status, accept.body]).toEqual([404, { error: friendMessages.noRequest }]);
  });

  it('refuses an unknown name, oneself, another browser, and bad ids, never with a 5xx', async () => {
    const [a, b] = [await makePlayer(server.url), await makePlayer(server.url)];
    expect((await ask(a, 'nobody_here_at_all')).status).toBe(404);
    const self = await ask(a, a.user.username);
    expect([self.status, self.body]).toEqual([400, { error: friendMessages.self }]);
    expect((await ask(a, b.user.username, b.cookie)).status).toBe(403);
    expect((await ask(a, 'x')).status).toBe(400);
    const badId = await request(server.url)
      .post('/api/friends/requests/not-an-id/accept')
      .set('Cookie', a.cookie)
      .send({ userId: a.user.id });
    expect(badId.status).toBe(400);
    const board = await request(server.url).get(`/api/users/${a.user.id}/friends/board`);
    expect(board.status).toBe(403);
  });

  it(`bounds the requests waiting for an answer at ${MAX_PENDING_REQUESTS}`, async () => {
    const a = await makePlayer(server.url);
    const others = await Promise.all(
      Array.from({ length: MAX_PENDING_REQUESTS + 1 }, () => makePlayer(server.url)),
    );
    for (const other of others.slice(0, MAX_PENDING_REQUESTS)) {
      expect((await ask(a, other.user.username)).status).toBe(200);
    }
    const refused = await ask(a, others[MAX_PENDING_REQUESTS].user.username);
    expect([refused.status, refused.body]).toEqual([
      409,
      { error: friendMessages.tooManyRequests },
    ]);
  });

  it("ranks the friends board by the season's points, the player among their friends", async () => {
    const [a, b] = [await makePlayer(server.url), await makePlayer(server.url)];
    await ask(a, b.user.username);
    await ask(b, a.user.username);
    expect((await tap(server.url, b, { count: 3 })).status).toBe(200);
    const res = await request(server.url)
      .get(`/api/users/${a.user.id}/friends/board`)
      .set('Cookie', a.cookie);
    expect(expectAnswer(friendsBoardSchema, res.body).rows).toEqual([
      { id: b.user.id, username: b.user.username, points: 3, rank: 1, relation: 'friend' },
      { id: a.user.id, username: a.user.username, points: 0, rank: 2, relation: 'me' },
    ]);
  });
});
