import {
  errorBodySchema,
  notificationSchema,
  notificationText,
  unreadCountSchema,
  type Notification,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotificationsRepository } from '../../src/lolgram/notifications';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TEST_REDIS_URL } from '../../test-support/services';
import { storageModes } from '../game/modes';
import { expectAnswer } from '../helpers/answers';
import { liveClients } from '../live/live-client';
import { makeAccount, makeJpeg, makePost, type Account } from './builders';
import { makeAdmin } from './moderation/builders';
import { makeVisiblePost } from './post-checks';

const SECRET = 'test-secret-test-secret-test-secret-0123';
// A profane caption is held for a moderator.
const HOLD_PROFANITY = { MODERATION_HOLD_THRESHOLD: '0.55' };
const PROFANE = 'this meme is fucking hilarious';

const list = async (who: Account, query = '') => {
  const res = await who.agent.get(`/api/lolgram/notifications${query}`);
  if (res.status !== 200) throw new Error(`list: ${res.status} ${res.text}`);
  return expectAnswer(z.array(notificationSchema), res.body);
};
const unread = async (who: Account) =>
  expectAnswer(
    unreadCountSchema,
    (await who.agent.get('/api/lolgram/notifications/unread-count')).body,
  ).unread;
const markRead = async (who: Account, body?: object) => {
  const res = await who.agent.post('/api/lolgram/notifications/read').send(body);
  if (res.status !== 200) throw new Error(`read: ${res.status} ${res.text}`);
  return expectAnswer(unreadCountSchema, res.body).unread;
};
const lol = async (who: Account, postId: string) => {
  const res = await who.agent.post(`/api/lolgram/posts/${postId}/lol`);
  if (res.status !== 200) throw new Error(`lol: ${res.status} ${res.text}`);
};
const follow = async (who: Account, target: Account) => {
  const res = await who.agent
    .post(`/api/lolgram/users/${target.user.id}/follow`)
    .send({ followerId: who.user.id });
  if (res.status !== 200) throw new Error(`follow: ${res.status} ${res.text}`);
};
const accounts = (url: string, n: number) =>
  Promise.all(Array.from({ length: n }, () => makeAccount(url)));

/** Decides the queue item of a post, as an admin would. */
async function decide(admin: Account, postId: string, decision: 'approved' | 'rejected') {
  const { body: queue } = await admin.agent.get('/api/lolgram/admin/moderation/queue');
  const item = (queue as { id: string; contentId: string }[]).find((i) => i.contentId === postId);
  if (!item) throw new Error(`no queue item for ${postId}`);
  const res = await admin.agent.post(`/api/lolgram/admin/moderation/${item.id}`).send({ decision });
  if (res.status !== 200) throw new Error(`decide: ${res.status} ${res.text}`);
}

describe.each(storageModes)('LOLGram notifications (%s storage)', (mode) => {
  let server: TestServer;
  let admin: Account;
  const connect = liveClients();
  beforeAll(async () => {
    server = await startTestServer({ mode, env: HOLD_PROFANITY });
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const settled = () => server.events.settled();

  it('groups the LOLs of a post into one notification naming the latest, none for oneself', async () => {
    const [author, alice, bob, carol] = await accounts(server.url, 4);
    const post = await makeVisiblePost(author);
    await lol(author, post.id);
    for (const who of [alice, bob, carol]) {
      await lol(who, post.id);
      await settled();
    }
    // Taking a LOL back and giving it again counts its author once.
    await carol.agent.delete(`/api/lolgram/posts/${post.id}/lol`).expect(200);
    await lol(carol, post.id);
    await settled();

    const [n, ...rest] = await list(author);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ kind: 'lol', postId: post.id, actorCount: 3, read: false });
    expect(n.actors.map((a) => a.username)).toEqual(
      [carol, bob, alice].map((a) => a.user.username),
    );
    expect(n.postThumbnail).toBe(post.thumbnailUrl);
    expect(notificationText(n)).toBe(`${carol.user.username} and 2 others LOLed your post`);
    expect(await unread(author)).toBe(1);
    // Nobody else was told anything; one's own LOL told nobody.
    for (const who of [alice, bob, carol]) expect(await list(who)).toEqual([]);
  });

  it('counts every actor once, and leaves those blocked either way out of the count', async () => {
    const [author, ...fans] = await accounts(server.url, 5);
    const post = await makeVisiblePost(author);
    for (const who of fans) {
      await lol(who, post.id);
      await settled();
    }
    // The first fan is no longer among the latest three the row names: taking the LOL back and
    // giving it again still counts them once.
    await fans[0].agent.delete(`/api/lolgram/posts/${post.id}/lol`).expect(200);
    await lol(fans[0], post.id);
    await settled();
    const latest = async () => (await list(author))[0];
    expect((await latest()).actorCount).toBe(4);
    // The author blocks one who is no longer named (fans[1]); a named one blocks the author.
    await author.agent.post(`/api/lolgram/users/${fans[1].user.id}/block`).expect(200);
    await fans[3].agent.post(`/api/lolgram/users/${author.user.id}/block`).expect(200);
    const shown = await latest();
    expect(shown.actors.map((a) => a.id)).toEqual([fans[0].user.id, fans[2].user.id]);
    expect(shown.actorCount).toBe(2);
    expect(notificationText(shown)).toBe(
      `${fans[0].user.username} and ${fans[2].user.username} LOLed your post`,
    );
    // Unblocked, a fan counts again.
    await author.agent.delete(`/api/lolgram/users/${fans[1].user.id}/block`).expect(200);
    expect((await latest()).actorCount).toBe(3);
  });

  it('tells of follows, comments and replies, and nothing from a blocked user', async () => {
    const [author, alice, bob] = await accounts(server.url, 3);
    const post = await makeVisiblePost(author);
    await follow(alice, author);
    await settled();
    expect((await list(author))[0]).toMatchObject({ kind: 'follow', postId: null, actorCount: 1 });

    const comment = (authorId: string, parent: { id: string; author: string } | null) => ({
      commentId: crypto.randomUUID(),
      postId: post.id,
      postAuthorId: author.user.id,
      authorId,
      parentId: parent?.id ?? null,
      parentAuthorId: parent?.author ?? null,
    });
    // Alice comments; Bob replies to her comment; the author replies to Alice too.
    const top = comment(alice.user.id, null);
    server.events.emit('comment.added', top);
    await settled();
    const bobsReply = comment(bob.user.id, { id: top.commentId, author: alice.user.id });
    server.events.emit('comment.added', bobsReply);
    await settled();
    server.events.emit(
      'comment.added',
      comment(author.user.id, { id: top.commentId, author: alice.user.id }),
    );
    // Alice answers on her own comment: nobody is told of her own reply but the post's author.
    server.events.emit(
      'comment.added',
      comment(alice.user.id, { id: top.commentId, author: alice.user.id }),
    );
    await settled();

    const authors = await list(author);
    expect(authors.map((n) => [n.kind, n.actorCount])).toEqual([
      ['comment', 2],
      ['follow', 1],
    ]);
    expect(authors[0].actors.map((a) => a.id)).toEqual([alice.user.id, bob.user.id]);
    expect(notificationText(authors[0])).toBe(
      `${alice.user.username} and ${bob.user.username} commented on your post`,
    );
    const alices = await list(alice);
    expect(alices).toHaveLength(1);
    expect(alices[0]).toMatchObject({ kind: 'reply', postId: post.id, actorCount: 2 });
    expect(alices[0].actors.map((a) => a.id)).toEqual([author.user.id, bob.user.id]);

    // The author blocks Bob: what Bob does tells the author nothing, and his name leaves the
    // author's list.
    await author.agent.post(`/api/lolgram/users/${bob.user.id}/block`).expect(200);
    await markRead(author);
    const refused = await bob.agent.post(`/api/lolgram/posts/${post.id}/lol`);
    expect(refused.status).toBe(403);
    server.events.emit('lol.added', {
      postId: post.id,
      authorId: author.user.id,
      actorId: bob.user.id,
    });
    server.events.emit('comment.added', comment(bob.user.id, null));
    server.events.emit('follow.added', { followerId: bob.user.id, userId: author.user.id });
    await settled();
    expect(await unread(author)).toBe(0);
    const names = (await list(author)).flatMap((n) => n.actors.map((a) => a.id));
    expect(names).not.toContain(bob.user.id);
  });

  it('takes an unfollower out of "started following you", and the notification when they were its only follower', async () => {
    const [author, alice, ...fans] = await accounts(server.url, 6);
    const unfollow = async (who: Account) => {
      const res = await who.agent
        .delete(`/api/lolgram/users/${author.user.id}/follow`)
        .send({ followerId: who.user.id });
      if (res.status !== 200) throw new Error(`unfollow: ${res.status} ${res.text}`);
    };
    await follow(alice, author);
    await settled();
    expect(await unread(author)).toBe(1);
    await unfollow(alice);
    await settled();
    expect(await list(author)).toEqual([]);
    expect(await unread(author)).toBe(0);

    // Four follow (three are named); the latest leaves and the one left unnamed takes his place.
    for (const fan of fans) {
      await follow(fan, author);
      await settled();
    }
    await unfollow(fans[3]);
    await settled();
    const [n, ...rest] = await list(author);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ kind: 'follow', actorCount: 3, read: false });
    expect(n.actors.map((a) => a.id)).toEqual([fans[2], fans[1], fans[0]].map((a) => a.user.id));

    // Read, it changes the same way; one who follows again by the time the event is handled stays.
    await markRead(author);
    await unfollow(fans[0]);
    server.events.emit('follow.removed', { followerId: fans[1].user.id, userId: author.user.id });
    await settled();
    const [read] = await list(author);
    expect(read).toMatchObject({ kind: 'follow', actorCount: 2, read: true });
    expect(read.actors.map((a) => a.id)).toEqual([fans[2], fans[1]].map((a) => a.user.id));
    expect(notificationText(read)).toBe(
      `${fans[2].user.username} and ${fans[1].user.username} started following you`,
    );
  });

  it('takes a follow that a block ended out of "started following you": an unblock does not bring it back', async () => {
    const [author, fan] = await accounts(server.url, 2);
    await follow(fan, author);
    await settled();
    expect(await unread(author)).toBe(1);
    await author.agent.post(`/api/lolgram/users/${fan.user.id}/block`).expect(200);
    await settled();
    await author.agent.delete(`/api/lolgram/users/${fan.user.id}/block`).expect(200);
    expect(await list(author)).toEqual([]);
    expect(await unread(author)).toBe(0);
  });

  it('tells an author how moderation went, and reporters that a post was removed, naming no one', async () => {
    const [author, reporter, other] = await accounts(server.url, 3);
    const held = await makePost(author, await makeJpeg(), { caption: PROFANE });
    expect(held.status).toBe(201);
    await expect.poll(async () => (await list(author)).map((n) => n.kind)).toEqual(['post-held']);
    await decide(admin, held.body.id, 'approved');
    await settled();
    expect((await list(author)).map((n) => n.kind)).toEqual(['post-approved', 'post-held']);

    const post = await makeVisiblePost(author);
    await reporter.agent
      .post(`/api/lolgram/posts/${post.id}/report`)
      .send({ reason: 'spam' })
      .expect(201);
    await other.agent
      .post(`/api/lolgram/posts/${post.id}/report`)
      .send({ reason: 'spam' })
      .expect(201);
    await decide(admin, post.id, 'rejected');
    await settled();
    for (const who of [reporter, other]) {
      const [n, ...rest] = await list(who);
      expect(rest).toEqual([]);
      expect(n).toMatchObject({
        kind: 'report-removed',
        postId: post.id,
        actors: [],
        actorCount: 0,
      });
      // Nobody's name, and no image of a removed post.
      expect(n.postThumbnail).toBeNull();
      expect(JSON.stringify(n)).not.toContain(admin.user.id);
    }
    expect((await list(author))[0]).toMatchObject({
      kind: 'post-rejected',
      postId: post.id,
      // Its image is no longer served, to anyone.
      postThumbnail: null,
    });
    expect(await unread(admin)).toBe(0);
  });

  it('tells those who reported a comment that it was removed, with the post it was on', async () => {
    const [author, commenter, reporter] = await accounts(server.url, 3);
    const post = await makeVisiblePost(author);
    const made = await commenter.agent
      .post(`/api/lolgram/posts/${post.id}/comments`)
      .send({ text: 'a rude remark' })
      .expect(201);
    const commentId = (made.body as { id: string }).id;
    await expect
      .poll(
        async () =>
          (
            await server.db.pool.query('SELECT status FROM post_comments WHERE id = $1', [
              commentId,
            ])
          ).rows[0]?.status,
      )
      .toBe('visible');
    await reporter.agent
      .post(`/api/lolgram/comments/${commentId}/report`)
      .send({ reason: 'harassment' })
      .expect(201);
    await decide(admin, commentId, 'rejected');
    await settled();
    const [n, ...rest] = await list(reporter);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({
      kind: 'report-removed',
      postId: post.id,
      commentId,
      actors: [],
      actorCount: 0,
    });
    expect(notificationText(n)).toBe(
      'A comment you reported was removed. Thank you for reporting it.',
    );
    expect(JSON.stringify(n)).not.toContain(admin.user.id);
  });

  it("tells a comment's author that a moderator removed it, or held and approved it, as for a post", async () => {
    const [author, commenter] = await accounts(server.url, 2);
    const post = await makeVisiblePost(author);
    const comment = async (text: string) =>
      (
        (
          await commenter.agent
            .post(`/api/lolgram/posts/${post.id}/comments`)
            .send({ text })
            .expect(201)
        ).body as { id: string }
      ).id;
    const removed = await comment('a remark someone reports');
    await expect
      .poll(
        async () =>
          (await server.db.pool.query('SELECT status FROM post_comments WHERE id = $1', [removed]))
            .rows[0]?.status,
      )
      .toBe('visible');
    await author.agent
      .post(`/api/lolgram/comments/${removed}/report`)
      .send({ reason: 'harassment' })
      .expect(201);
    await decide(admin, removed, 'rejected');
    await settled();
    const [told, ...rest] = await list(commenter);
    expect(rest).toEqual([]);
    expect(told).toMatchObject({
      kind: 'comment-rejected',
      postId: post.id,
      commentId: removed,
      actors: [],
      actorCount: 0,
    });
    expect(notificationText(told)).toBe(
      'Your comment was removed for breaking the community rules',
    );
    expect(JSON.stringify(told)).not.toContain(admin.user.id);

    const held = await comment(PROFANE);
    await expect
      .poll(async () => (await list(commenter)).map((n) => n.kind))
      .toEqual(['comment-held', 'comment-rejected']);
    await decide(admin, held, 'approved');
    await settled();
    expect((await list(commenter)).map((n) => [n.kind, n.commentId])).toEqual([
      ['comment-approved', held],
      ['comment-held', held],
      ['comment-rejected', removed],
    ]);
  });

  it('pages newest first by cursor, marks read up to what was seen, and keeps to its owner', async () => {
    const [owner, stranger, ...fans] = await accounts(server.url, 5);
    const posts = [];
    for (let i = 0; i < 3; i += 1) posts.push(await makeVisiblePost(owner));
    for (const [i, post] of posts.entries()) {
      await lol(fans[i], post.id);
      await settled();
    }
    await follow(stranger, owner);
    await settled();
    const all = await list(owner);
    expect(all.map((n) => n.kind)).toEqual(['follow', 'lol', 'lol', 'lol']);
    expect(all.slice(1).map((n) => n.postId)).toEqual(posts.map((p) => p.id).reverse());
    const first = await list(owner, '?limit=2');
    const second = await list(owner, `?limit=2&before=${first[1].cursor}`);
    expect([...first, ...second].map((n) => n.id)).toEqual(all.map((n) => n.id));

    // Another user reads and marks only their own.
    expect(await list(stranger)).toEqual([]);
    expect(await markRead(stranger)).toBe(0);
    expect(await unread(owner)).toBe(4);

    // Up to the second newest: the newest stays unread.
    expect(await markRead(owner, { upTo: all[1].cursor })).toBe(1);
    expect((await list(owner)).map((n) => n.read)).toEqual([false, true, true, true]);
    // A LOL on a read group starts a new unread one.
    await lol(fans[1], posts[0].id);
    await settled();
    expect(await unread(owner)).toBe(2);
    expect(await markRead(owner)).toBe(0);
    expect((await list(owner)).every((n) => n.read)).toBe(true);

    for (const [method, path] of [
      ['get', '/api/lolgram/notifications'],
      ['get', '/api/lolgram/notifications/unread-count'],
      ['post', '/api/lolgram/notifications/read'],
    ] as const) {
      const res = await request(server.url)[method](path);
      expect(res.status).toBe(401);
      expectAnswer(errorBodySchema, res.body);
    }
    for (const bad of ['?before=nope', '?limit=0', '?limit=51', '?before=%00']) {
      const res = await owner.agent.get(`/api/lolgram/notifications${bad}`);
      expect(res.status).toBe(400);
      expectAnswer(errorBodySchema, res.body);
    }
    for (const body of [{ upTo: 'nope' }, { upTo: 42 }, { upTo: 'x'.repeat(10_000) }, []]) {
      const res = await owner.agent.post('/api/lolgram/notifications/read').send(body);
      expect(res.status).toBe(400);
      expectAnswer(errorBodySchema, res.body);
    }
  });

  it('keeps a storm of LOLs to one row and a few pushes, with the right count', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const fans = await accounts(server.url, 30);
    const tab = await connect(server.url, author.cookie);
    const started = performance.now();
    await Promise.all(fans.map((fan) => lol(fan, post.id)));
    await settled();
    const last = await tab.next('notifications', () => true);
    expect(last.unread).toBe(1);
    const [n, ...rest] = await list(author);
    expect(rest).toEqual([]);
    expect(n.actorCount).toBe(fans.length);
    const { rows } = await server.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1',
      [author.user.id],
    );
    expect(rows[0].n).toBe(1);
    // One push a second at most (and one at the start): far fewer than the LOLs.
    const seconds = Math.ceil((performance.now() - started) / 1000);
    expect(tab.pushes.filter((p) => p.event === 'notifications').length).toBeLessThanOrEqual(
      seconds + 1,
    );
    expect(seconds + 1).toBeLessThan(fans.length);
  });

  it('prunes what has not changed for 90 days', async () => {
    const [author, fan, follower] = await accounts(server.url, 3);
    const post = await makeVisiblePost(author);
    await lol(fan, post.id);
    await follow(follower, author);
    await settled();
    await server.db.pool.query(
      `UPDATE notifications SET updated_at = now() - interval '91 days'
        WHERE user_id = $1 AND kind = 'lol'`,
      [author.user.id],
    );
    await server.db.pool.query(
      `UPDATE notifications SET updated_at = now() - interval '89 days'
        WHERE user_id = $1 AND kind = 'follow'`,
      [author.user.id],
    );
    const repository = new NotificationsRepository(server.db.pool);
    // Two nodes pruning at once delete each row once, without an error.
    const pruned = await Promise.all([repository.deleteExpired(), repository.deleteExpired()]);
    expect(pruned[0] + pruned[1]).toBeGreaterThanOrEqual(1);
    expect((await list(author)).map((n) => n.kind)).toEqual(['follow']);
    expect(await repository.deleteExpired()).toBe(0);
  });
});

describe.runIf(await redisAvailable())('notifications across two server processes', () => {
  let a: TestServer;
  let b: ServerProcess;
  const connect = liveClients();
  beforeAll(async () => {
    a = await startTestServer({ mode: 'redis', env: { SESSION_SECRET: SECRET } });
    b = await spawnServer({
      DATABASE_URL: a.databaseUrl ?? '',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: a.redisPrefix,
      SESSION_SECRET: SECRET,
      MODERATION_IMAGE_CHECK: 'off',
    });
  });
  afterAll(async () => {
    if (b) expect(await b.stop()).toBe(0);
    await a?.stop();
  });

  it('writes once and reaches the user on the other process, whichever process the LOL came to', async () => {
    const author = await makeAccount(a.url);
    const post = await makeVisiblePost(author);
    const onA = await connect(a.url, author.cookie);
    // The fan acts on B; the author listens on A.
    const fan = await makeAccount(b.url);
    const res = await request(b.url)
      .post(`/api/lolgram/posts/${post.id}/lol`)
      .set('Cookie', fan.cookie);
    expect(res.status).toBe(200);
    expect(await onA.next('notifications', (p) => p.unread === 1)).toEqual({ unread: 1 });
    const follower = await makeAccount(b.url);
    await request(b.url)
      .post(`/api/lolgram/users/${author.user.id}/follow`)
      .set('Cookie', follower.cookie)
      .send({ followerId: follower.user.id })
      .expect(200);
    expect(await onA.next('notifications', (p) => p.unread === 2)).toEqual({ unread: 2 });
    const all: Notification[] = (await author.agent.get('/api/lolgram/notifications')).body;
    expect(all.map((n) => [n.kind, n.actorCount])).toEqual([
      ['follow', 1],
      ['lol', 1],
    ]);
  });

  it('keeps a storm of LOLs that comes through both processes to one push a second in all', async () => {
    const author = await makeAccount(a.url);
    const post = await makeVisiblePost(author);
    const tab = await connect(a.url, author.cookie);
    const fans = await accounts(a.url, 24);
    const started = performance.now();
    await Promise.all(
      fans.map((fan, i) =>
        request(i % 2 === 0 ? a.url : b.url)
          .post(`/api/lolgram/posts/${post.id}/lol`)
          .set('Cookie', fan.cookie)
          .expect(200),
      ),
    );
    const seconds = Math.ceil((performance.now() - started) / 1000);
    // The last push carries the one grouped notification of them all.
    await expect.poll(async () => (await list(author))[0]?.actorCount).toBe(fans.length);
    await tab.next('notifications', (p) => p.unread === 1);
    const { rows } = await a.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1',
      [author.user.id],
    );
    expect(rows[0].n).toBe(1);
    // One a second on both processes together (and one as it starts), not one each.
    const pushes = () => tab.pushes.filter((p) => p.event === 'notifications').length;
    expect(pushes()).toBeLessThanOrEqual(seconds + 2);
    expect(seconds + 2).toBeLessThan(fans.length / 2);
  });
});

describe('notifications on the embedded database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ embedded: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('groups, lists, marks read and prunes as on PostgreSQL', async () => {
    const [author, alice, bob] = await accounts(server.url, 3);
    const post = await makeVisiblePost(author);
    for (const who of [alice, bob]) {
      await lol(who, post.id);
      await server.events.settled();
    }
    await follow(alice, author);
    await server.events.settled();
    const all = await list(author);
    expect(all.map((n) => [n.kind, n.actorCount])).toEqual([
      ['follow', 1],
      ['lol', 2],
    ]);
    expect(await unread(author)).toBe(2);
    expect(await markRead(author, { upTo: all[0].cursor })).toBe(0);
    await server.db.pool.query(
      `UPDATE notifications SET updated_at = now() - interval '91 days' WHERE kind = 'lol'`,
    );
    expect(await new NotificationsRepository(server.db.pool).deleteExpired()).toBe(1);
    expect((await list(author)).map((n) => n.kind)).toEqual(['follow']);
  });
});
