import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvents, EventBus, EventName } from '../../src/core/events';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer } from '../game/builders';
import { makeAccount, makeJpeg, makePost, type Account } from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { checked, makeVisiblePost } from '../lolgram/post-checks';

const PROFANE = 'this meme is fucking hilarious';

type Seen = { [K in EventName]: { name: K; payload: DomainEvents[K] } }[EventName];

/** Every domain event the server emits, as its handlers see them. */
function recordEvents(bus: EventBus) {
  const names: EventName[] = [
    'post.created',
    'post.visibility-changed',
    'lol.added',
    'follow.added',
    'follow.removed',
    'moderation.decided',
    'player.frozen',
    'session.ended',
  ];
  const seen: Seen[] = [];
  const removers = names.map((name) =>
    bus.on(name, (payload: unknown) => void seen.push({ name, payload } as Seen)),
  );
  return {
    seen,
    /** The events since the last call, once the handlers of what was emitted so far have run. */
    async take(): Promise<Seen[]> {
      await bus.settled();
      return seen.splice(0);
    },
    stop: () => removers.forEach((remove) => remove()),
  };
}

describe('domain events, as the services emit them', () => {
  let server: TestServer;
  let admin: Account;
  let events: ReturnType<typeof recordEvents>;
  beforeAll(async () => {
    server = await startTestServer({ env: { MODERATION_HOLD_THRESHOLD: '0.55' } });
    admin = await makeAdmin(server);
    events = recordEvents(server.events);
  });
  afterEach(async () => {
    await events.take();
  });
  afterAll(async () => {
    events?.stop();
    await server?.stop();
  });

  const queueItem = async (postId: string) =>
    (
      (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
        id: string;
        contentId: string;
      }[]
    ).find((item) => item.contentId === postId)!;
  const decide = (queueId: string, decision: 'approved' | 'rejected') =>
    admin.agent.post(`/api/lolgram/admin/moderation/${queueId}`).send({ decision });
  const report = (who: Account, postId: string) =>
    who.agent.post(`/api/lolgram/posts/${postId}/report`).send({ reason: 'spam' });

  it('post.created once per post written, and post.visibility-changed as its check ends', async () => {
    const author = await makeAccount(server.url);
    expect((await makePost(author, Buffer.from('not an image'))).status).toBe(415);
    const other = await makeAccount(server.url);
    const asOther = await makePost(author, await makeJpeg(), { userId: other.user.id });
    expect(asOther.status).toBe(403);
    const post = (await makePost(author, await makeJpeg(), { caption: 'clean' })).body;
    expect(await checked(author, post.id)).toBe('visible');
    await expect.poll(() => events.seen.length).toBe(2);
    expect(await events.take()).toEqual([
      { name: 'post.created', payload: { postId: post.id, authorId: author.user.id } },
      {
        name: 'post.visibility-changed',
        payload: { postId: post.id, authorId: author.user.id, was: 'checking', now: 'visible' },
      },
    ]);
  });

  it('post.visibility-changed when a decision moves a post, not when it leaves it where it was', async () => {
    const author = await makeAccount(server.url);
    const [one, two] = [await makeAccount(server.url), await makeAccount(server.url)];
    const post = await makeVisiblePost(author, { caption: 'harmless' });
    await events.take();
    await report(one, post.id);
    const kept = await decide((await queueItem(post.id)).id, 'approved');
    expect(kept.body).toMatchObject({ previousPostStatus: 'visible', postStatus: 'visible' });
    await report(two, post.id);
    const item = await queueItem(post.id);
    expect((await decide(item.id, 'rejected')).status).toBe(200);
    expect((await decide(item.id, 'approved')).status).toBe(409);
    // Each event's handlers run in turn, the recorder's after the app's (some of which wait on the
    // database), so two events may be recorded in either order: what was emitted is what counts.
    const seen = await events.take();
    expect(seen).toHaveLength(3);
    expect(seen).toEqual(
      expect.arrayContaining([
        {
          name: 'moderation.decided',
          payload: expect.objectContaining({ contentId: post.id, decision: 'approved' }),
        },
        {
          name: 'post.visibility-changed',
          payload: { postId: post.id, authorId: author.user.id, was: 'visible', now: 'rejected' },
        },
        {
          name: 'moderation.decided',
          payload: expect.objectContaining({ contentId: post.id, decision: 'rejected' }),
        },
      ]),
    );
  });

  it("moderation.decided names the decided item's reporters, none for an item the check queued", async () => {
    const author = await makeAccount(server.url);
    const held = (await makePost(author, await makeJpeg(), { caption: PROFANE })).body;
    expect(await checked(author, held.id)).toBe('held');
    const heldItem = await queueItem(held.id);
    await decide(heldItem.id, 'approved');

    const post = await makeVisiblePost(author, { caption: 'reported twice, decided twice' });
    const [first, second, third] = [
      await makeAccount(server.url),
      await makeAccount(server.url),
      await makeAccount(server.url),
    ];
    await report(first, post.id);
    await report(second, post.id);
    const earlier = await queueItem(post.id);
    await decide(earlier.id, 'approved');
    expect((await report(first, post.id)).status).toBe(409);
    await report(third, post.id);
    const later = await queueItem(post.id);
    await decide(later.id, 'rejected');

    const decided = (await events.take()).filter((event) => event.name === 'moderation.decided');
    expect(decided.map((event) => event.payload)).toEqual([
      {
        queueId: heldItem.id,
        contentType: 'post',
        contentId: held.id,
        postId: held.id,
        decision: 'approved',
        moderatorId: admin.user.id,
        reporterIds: [],
      },
      {
        queueId: earlier.id,
        contentType: 'post',
        contentId: post.id,
        postId: post.id,
        decision: 'approved',
        moderatorId: admin.user.id,
        reporterIds: [first.user.id, second.user.id],
      },
      {
        queueId: later.id,
        contentType: 'post',
        contentId: post.id,
        postId: post.id,
        decision: 'rejected',
        moderatorId: admin.user.id,
        reporterIds: [third.user.id],
      },
    ]);
  });

  it("lol.added only when a LOL was really added, its author's own included", async () => {
    const author = await makeAccount(server.url);
    const fan = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    await events.take();
    const lol = () => fan.agent.post(`/api/lolgram/posts/${post.id}/lol`);
    expect((await lol()).status).toBe(200);
    expect((await lol()).status).toBe(200);
    expect((await fan.agent.delete(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(200);
    const missing = await fan.agent.post(`/api/lolgram/posts/${crypto.randomUUID()}/lol`);
    expect(missing.status).toBe(404);
    expect((await author.agent.post(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(200);
    expect(await events.take()).toEqual([
      {
        name: 'lol.added',
        payload: { postId: post.id, authorId: author.user.id, actorId: fan.user.id },
      },
      // What happened: leaving out one's own LOLs is for whoever tells the author.
      {
        name: 'lol.added',
        payload: { postId: post.id, authorId: author.user.id, actorId: author.user.id },
      },
    ]);
  });

  it('follow.added and follow.removed only when a follow was really added or removed', async () => {
    const [alice, bob] = [await makeAccount(server.url), await makeAccount(server.url)];
    await events.take();
    const follow = (userId: string) =>
      alice.agent.post(`/api/lolgram/users/${userId}/follow`).send({ followerId: alice.user.id });
    const unfollow = () =>
      alice.agent
        .delete(`/api/lolgram/users/${bob.user.id}/follow`)
        .send({ followerId: alice.user.id });
    expect((await unfollow()).status).toBe(200);
    expect((await follow(bob.user.id)).status).toBe(200);
    expect((await follow(bob.user.id)).status).toBe(200);
    expect((await follow(alice.user.id)).status).toBe(400);
    expect((await follow(crypto.randomUUID())).status).toBe(404);
    expect((await unfollow()).status).toBe(200);
    expect((await unfollow()).status).toBe(200);
    const pair = { followerId: alice.user.id, userId: bob.user.id };
    expect(await events.take()).toEqual([
      { name: 'follow.added', payload: pair },
      { name: 'follow.removed', payload: pair },
    ]);
  });

  it('player.frozen when an operator freezes or unfreezes, not when nothing changed', async () => {
    const player = await makePlayer(server.url);
    const players = `/api/admin/game/players/${player.user.id}`;
    expect((await admin.agent.post(`${players}/freeze`).send({ reason: 'bot' })).status).toBe(200);
    expect((await admin.agent.post(`${players}/freeze`).send({ reason: 'bot' })).status).toBe(409);
    expect((await admin.agent.post(`${players}/unfreeze`).send({ reason: 'ok' })).status).toBe(200);
    expect(await events.take()).toEqual([
      { name: 'player.frozen', payload: { playerId: player.user.id, frozen: true } },
      { name: 'player.frozen', payload: { playerId: player.user.id, frozen: false } },
    ]);
  });

  it('session.ended when a session is signed out or replaced, once', async () => {
    const account = await makeAccount(server.url);
    const sessionIds = async () =>
      (
        await server.db.pool.query<{ id: string }>(
          'SELECT id FROM auth_sessions WHERE user_id = $1',
          [account.user.id],
        )
      ).rows.map((row) => row.id);
    const [first] = await sessionIds();
    await events.take();
    // Signing in again in the same browser ends the session it had.
    const login = { username: account.user.username, password: account.password };
    expect((await account.agent.post('/api/lolgram/users/login').send(login)).status).toBe(200);
    const [second] = await sessionIds();
    expect((await account.agent.post('/api/lolgram/users/logout')).status).toBe(204);
    expect((await account.agent.post('/api/lolgram/users/logout')).status).toBe(204);
    expect(await events.take()).toEqual([
      { name: 'session.ended', payload: { userId: account.user.id, sessionId: first } },
      { name: 'session.ended', payload: { userId: account.user.id, sessionId: second } },
    ]);
  });

  it('keeps a write whose event handler fails', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    await events.take();
    const remove = server.events.on('lol.added', () => {
      throw new Error('a broken handler');
    });
    try {
      const lol = await admin.agent.post(`/api/lolgram/posts/${post.id}/lol`);
      expect([lol.status, lol.body]).toEqual([200, { lolCount: 1, isLiked: true }]);
      expect(await events.take()).toEqual([
        {
          name: 'lol.added',
          payload: { postId: post.id, authorId: author.user.id, actorId: admin.user.id },
        },
      ]);
    } finally {
      remove();
    }
  });
});
