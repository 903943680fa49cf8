import {
  commentSignalSchema,
  commentMessages,
  commentPageSchema,
  commentSchema,
  commentsOffStateSchema,
  errorBodySchema,
  postSchema,
  type Comment,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DomainEvents } from '../../src/core/events';
import { expectAnswer } from '../helpers/answers';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, type Account } from './builders';
import { makeAdmin } from './moderation/builders';
import { makeVisiblePost } from './post-checks';

const PROFANE = 'this meme is fucking hilarious';
const PER_USER = 6;
const PER_POST = 14;

describe.each(storageModes)('LOLGram comments (%s storage)', (mode) => {
  let server: TestServer;
  let admin: Account;
  const added: DomainEvents['comment.added'][] = [];
  beforeAll(async () => {
    server = await startTestServer({
      mode,
      env: {
        // A profane comment (0.6) is held, and queued.
        MODERATION_HOLD_THRESHOLD: '0.55',
        COMMENTS_PER_MINUTE: String(PER_USER),
        COMMENTS_PER_POST_PER_MINUTE: String(PER_POST),
      },
    });
    admin = await makeAdmin(server);
    server.events.on('comment.added', (payload) => void added.push(payload));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const write = (who: Account, postId: string, text: string, parentId?: string) =>
    who.agent.post(`/api/lolgram/posts/${postId}/comments`).send({ text, parentId });
  /** Writes a comment and waits until its check has made it public. */
  const comment = async (who: Account, postId: string, text: string, parentId?: string) => {
    const res = await write(who, postId, text, parentId);
    if (res.status !== 201) throw new Error(`comment: ${res.status} ${res.text}`);
    const made = expectAnswer(commentSchema, res.body);
    await expect
      .poll(async () => (await thread(who, postId)).find((c) => c.id === made.id)?.moderation)
      .toBeUndefined();
    return made;
  };
  const page = async (who: Account | null, postId: string, query = '') => {
    const res = await (who ? who.agent : request(server.url)).get(
      `/api/lolgram/posts/${postId}/comments${query}`,
    );
    if (res.status !== 200) throw new Error(`thread: ${res.status} ${res.text}`);
    return expectAnswer(commentPageSchema, res.body);
  };
  const thread = async (who: Account | null, postId: string) =>
    (await page(who, postId, '?limit=50')).comments;
  const texts = (comments: Comment[]) => comments.map((c) => (c.deleted ? '(deleted)' : c.text));
  const countOf = async (postId: string) =>
    expectAnswer(postSchema, (await request(server.url).get(`/api/lolgram/posts/${postId}`)).body)
      .commentCount;
  const queue = async () =>
    (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
      id: string;
      contentType: string;
      contentId: string;
      comment?: { text: string; postId: string; postCaption: string } | null;
    }[];

  it('comments and replies one level deep, oldest first, counted, paged, on the feed card', async () => {
    const [author, alice, bob] = await Promise.all([
      makeAccount(server.url),
      makeAccount(server.url),
      makeAccount(server.url),
    ]);
    const post = await makeVisiblePost(author, { caption: 'thread' });
    const first = await comment(alice, post.id, '  first!  ');
    expect(first).toMatchObject({ text: 'first!', parentId: null, username: alice.user.username });
    const second = await comment(bob, post.id, 'second');
    const reply = await comment(bob, post.id, 'a reply', first.id);
    // A reply to a reply answers the same top comment.
    const replyToReply = await comment(alice, post.id, 'a reply to the reply', reply.id);
    expect(replyToReply.parentId).toBe(first.id);
    expect(texts(await thread(null, post.id))).toEqual([
      'first!',
      'a reply',
      'a reply to the reply',
      'second',
    ]);
    expect(await countOf(post.id)).toBe(4);

    // Pages of two go on where the last ended, among the replies too.
    const one = await page(null, post.id, '?limit=2');
    expect(texts(one.comments)).toEqual(['first!', 'a reply']);
    const two = await page(null, post.id, `?limit=2&after=${one.nextCursor}`);
    expect(texts(two.comments)).toEqual(['a reply to the reply', 'second']);
    expect(two.nextCursor).toBeNull();
    expect(two.commentCount).toBe(4);

    const feed = z
      .array(postSchema)
      .parse((await request(server.url).get('/api/lolgram/posts/feed?limit=50')).body);
    expect(feed.find((p) => p.id === post.id)?.firstComments).toEqual([
      { id: first.id, username: alice.user.username, text: 'first!' },
      { id: second.id, username: bob.user.username, text: 'second' },
    ]);
    expect(added.filter((a) => a.postId === post.id)).toEqual([
      expect.objectContaining({ commentId: first.id, parentId: null, parentAuthorId: null }),
      expect.objectContaining({ commentId: second.id, authorId: bob.user.id }),
      expect.objectContaining({
        commentId: reply.id,
        parentId: first.id,
        parentAuthorId: alice.user.id,
        postAuthorId: author.user.id,
      }),
      expect.objectContaining({ commentId: replyToReply.id, parentId: first.id }),
    ]);
  });

  it('refuses empty, long and unstorable text, and bad ids, with {error} 400 or 404', async () => {
    const [author, alice] = [await makeAccount(server.url), await makeAccount(server.url)];
    const post = await makeVisiblePost(author);
    for (const [body, error] of [
      [{ text: '   ' }, commentMessages.required],
      [{ text: 'x'.repeat(501) }, commentMessages.tooLong],
      [{ text: 'nul\u0000here' }, undefined],
      [{ text: '\uD800' }, undefined],
      [{ text: 42 }, undefined],
      [{ text: 'ok', parentId: 'nope' }, undefined],
      [{}, undefined],
    ] as const) {
      const res = await alice.agent.post(`/api/lolgram/posts/${post.id}/comments`).send(body);
      expect(res.status).toBe(400);
      const answer = expectAnswer(errorBodySchema, res.body);
      if (error) expect(answer.error).toBe(error);
    }
    expect((await write(alice, post.id, 'x'.repeat(500))).status).toBe(201);
    expect((await write(alice, 'not-an-id', 'hi')).status).toBe(404);
    expect((await write(alice, crypto.randomUUID(), 'hi')).status).toBe(404);
    expect((await write(alice, post.id, 'hi', crypto.randomUUID())).status).toBe(404);
    const badCursor = await request(server.url).get(
      `/api/lolgram/posts/${post.id}/comments?after=zz`,
    );
    expect(badCursor.status).toBe(400);
    expect((await request(server.url).get('/api/lolgram/posts/nope/comments')).status).toBe(404);
  });

  it('deletes: its author any of theirs, the post author any on the post; "deleted" keeps replies', async () => {
    const [author, alice, bob] = await Promise.all([
      makeAccount(server.url),
      makeAccount(server.url),
      makeAccount(server.url),
    ]);
    const post = await makeVisiblePost(author);
    const top = await comment(alice, post.id, 'top');
    const reply = await comment(bob, post.id, 'reply', top.id);
    const lone = await comment(bob, post.id, 'lone');
    expect(await countOf(post.id)).toBe(3);

    const forbidden = await bob.agent.delete(`/api/lolgram/comments/${top.id}`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: commentMessages.onlyOwnOrPostAuthor });
    expect((await request(server.url).delete(`/api/lolgram/comments/${top.id}`)).status).toBe(401);
    // An admin is not the author either: they reject through moderation.
    expect((await admin.agent.delete(`/api/lolgram/comments/${top.id}`)).status).toBe(403);

    expect((await alice.agent.delete(`/api/lolgram/comments/${top.id}`)).status).toBe(204);
    const after = await thread(null, post.id);
    expect(after.map((c) => [c.id, c.deleted, c.text, c.username])).toEqual([
      [top.id, true, null, null],
      [reply.id, false, 'reply', bob.user.username],
      [lone.id, false, 'lone', bob.user.username],
    ]);
    expect(await countOf(post.id)).toBe(2);
    expect((await alice.agent.delete(`/api/lolgram/comments/${top.id}`)).status).toBe(404);
    // A reply cannot answer a deleted comment.
    expect((await write(alice, post.id, 'late', top.id)).status).toBe(404);

    // The post's author deletes someone else's comments; the last reply takes "deleted" with it.
    expect((await author.agent.delete(`/api/lolgram/comments/${reply.id}`)).status).toBe(204);
    expect((await author.agent.delete(`/api/lolgram/comments/${lone.id}`)).status).toBe(204);
    expect(await thread(null, post.id)).toEqual([]);
    expect(await countOf(post.id)).toBe(0);
    expect((await alice.agent.delete('/api/lolgram/comments/not-an-id')).status).toBe(404);

    // A deleted post takes its comments with it.
    const gone = await makeVisiblePost(author);
    await comment(alice, gone.id, 'bye');
    expect((await author.agent.delete(`/api/lolgram/posts/${gone.id}`)).status).toBe(204);
    expect((await request(server.url).get(`/api/lolgram/posts/${gone.id}/comments`)).status).toBe(
      404,
    );
  });

  it("turns comments off and on: the post's author only; then nobody comments", async () => {
    const [author, alice] = [await makeAccount(server.url), await makeAccount(server.url)];
    const post = await makeVisiblePost(author);
    const existing = await comment(alice, post.id, 'before');
    const off = (who: Account | null, on = false) => {
      const agent = who ? who.agent : request(server.url);
      const path = `/api/lolgram/posts/${post.id}/comments-off`;
      return on ? agent.delete(path) : agent.put(path);
    };
    expect((await off(null)).status).toBe(401);
    const refused = await off(alice);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: commentMessages.onlyPostAuthor });
    expect((await off(admin)).status).toBe(403);
    expect(expectAnswer(commentsOffStateSchema, (await off(author)).body)).toEqual({
      commentsOff: true,
    });
    const page1 = await page(null, post.id);
    expect(page1.commentsOff).toBe(true);
    expect(page1.comments.map((c) => c.id)).toEqual([existing.id]);
    for (const res of [
      await write(alice, post.id, 'now?'),
      await write(author, post.id, 'me?'),
      await write(alice, post.id, 'reply?', existing.id),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: commentMessages.commentsOff });
    }
    expect((await off(author, true)).body).toEqual({ commentsOff: false });
    expect((await write(alice, post.id, 'again')).status).toBe(201);
    expect((await off(alice, true)).status).toBe(403);
    expect(
      (await alice.agent.put(`/api/lolgram/posts/${crypto.randomUUID()}/comments-off`)).status,
    ).toBe(404);
  });

  it('blocking: no comment or reply between the two, and neither sees the other’s comments', async () => {
    const [author, blocked, other] = await Promise.all([
      makeAccount(server.url),
      makeAccount(server.url),
      makeAccount(server.url),
    ]);
    const post = await makeVisiblePost(author);
    const othersPost = await makeVisiblePost(other);
    const byBlocked = await comment(blocked, post.id, 'said before the block');
    const byAuthorElsewhere = await comment(author, othersPost.id, 'on someone else’s post');
    const byOther = await comment(other, othersPost.id, 'a third voice');
    const replyByBlocked = await comment(blocked, othersPost.id, 'answering', byOther.id);
    const answerToBlocked = await comment(other, post.id, 'well said', byBlocked.id);
    await comment(other, othersPost.id, 'agreed', byAuthorElsewhere.id);
    expect((await author.agent.post(`/api/lolgram/users/${blocked.user.id}/block`)).status).toBe(
      200,
    );
    // The blocker is told that what is hidden above a reply is by someone they blocked, not that
    // it was deleted, and the count is of what they read; the blocked user reads only "deleted".
    const authorsPage = await page(author, post.id);
    expect(authorsPage.comments.map((c) => [c.id, c.deleted, c.blockedAuthor])).toEqual([
      [byBlocked.id, true, true],
      [answerToBlocked.id, false, undefined],
    ]);
    expect(authorsPage.commentCount).toBe(1);
    expect((await page(null, post.id)).commentCount).toBe(2);
    const blockedsPage = await page(blocked, othersPost.id);
    const hidden = blockedsPage.comments.find((c) => c.id === byAuthorElsewhere.id);
    expect(hidden).toMatchObject({ deleted: true, text: null });
    expect(hidden?.blockedAuthor).toBeUndefined();
    expect(blockedsPage.commentCount).toBe((await page(null, othersPost.id)).commentCount - 1);

    const onPost = await write(blocked, post.id, 'hello?');
    expect(onPost.status).toBe(403);
    expect(onPost.body).toEqual({ error: commentMessages.cannotComment });
    const reply = await write(blocked, othersPost.id, 'to you', byAuthorElsewhere.id);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ error: commentMessages.cannotReply });
    // The blocker cannot answer the blocked either (either way).
    expect((await write(author, othersPost.id, 'to you', replyByBlocked.id)).status).toBe(403);
    // Elsewhere, both still comment.
    const stillHere = await comment(blocked, othersPost.id, 'still here');

    const ids = async (who: Account | null, postId: string) =>
      (await thread(who, postId)).filter((c) => !c.deleted).map((c) => c.id);
    expect(await ids(author, post.id)).not.toContain(byBlocked.id);
    expect(await ids(blocked, othersPost.id)).not.toContain(byAuthorElsewhere.id);
    expect(await ids(author, othersPost.id)).not.toContain(replyByBlocked.id);
    expect(await ids(null, post.id)).toContain(byBlocked.id);
    expect(await ids(other, othersPost.id)).toContain(byAuthorElsewhere.id);
    const feed = async (who: Account) =>
      z.array(postSchema).parse((await who.agent.get('/api/lolgram/posts/feed?limit=50')).body);
    const card = (await feed(blocked)).find((p) => p.id === othersPost.id);
    expect(card?.firstComments?.map((c) => c.id)).toEqual([byOther.id, stillHere.id]);
    // Every answer holding the post counts what its reader may read of the thread.
    expect((await feed(author)).find((p) => p.id === post.id)?.commentCount).toBe(1);
    expect(card?.commentCount).toBe(blockedsPage.commentCount + 1);
    const single = await author.agent.get(`/api/lolgram/posts/${post.id}`);
    expect(expectAnswer(postSchema, single.body).commentCount).toBe(1);
    expect(await countOf(post.id)).toBe(2);
    // Reporting needs to read it too.
    const report = await author.agent
      .post(`/api/lolgram/comments/${replyByBlocked.id}/report`)
      .send({ reason: 'spam' });
    expect(report.status).toBe(404);
  });

  it('moderates comments like posts: held at the threshold, approved to the thread, reported, rejected, audited', async () => {
    const [author, alice, bob] = await Promise.all([
      makeAccount(server.url),
      makeAccount(server.url),
      makeAccount(server.url),
    ]);
    const post = await makeVisiblePost(author, { caption: 'moderated thread' });
    const held = expectAnswer(commentSchema, (await write(alice, post.id, PROFANE)).body);
    // Answered as the check left it: still checking, or held already when the check was quicker.
    expect(['checking', 'held']).toContain(held.moderation);
    await expect
      .poll(async () => (await thread(alice, post.id)).find((c) => c.id === held.id)?.moderation)
      .toBe('held');
    expect(await thread(bob, post.id)).toEqual([]);
    expect(await countOf(post.id)).toBe(0);
    // Nobody replies to a held comment.
    expect((await write(bob, post.id, 'hm', held.id)).status).toBe(404);
    const item = (await queue()).find((q) => q.contentId === held.id)!;
    expect(item).toMatchObject({
      contentType: 'comment',
      comment: { text: PROFANE, postId: post.id, postCaption: 'moderated thread' },
    });
    expect(added.some((a) => a.commentId === held.id)).toBe(false);
    const approved = await admin.agent
      .post(`/api/lolgram/admin/moderation/${item.id}`)
      .send({ decision: 'approved' });
    expect(approved.body).toMatchObject({
      status: 'visible',
      previousStatus: 'held',
      postStatus: null,
    });
    expect((await thread(bob, post.id)).map((c) => c.id)).toEqual([held.id]);
    expect(await countOf(post.id)).toBe(1);
    await server.events.settled();
    expect(added.filter((a) => a.commentId === held.id)).toHaveLength(1);

    // A clean comment, reported, then rejected: gone from the thread and the count.
    const clean = await comment(bob, post.id, 'nice');
    const own = await bob.agent
      .post(`/api/lolgram/comments/${clean.id}/report`)
      .send({ reason: 'spam' });
    expect(own.status).toBe(400);
    expect(own.body).toEqual({ error: commentMessages.cannotReportOwn });
    expect(
      (
        await request(server.url)
          .post(`/api/lolgram/comments/${clean.id}/report`)
          .send({ reason: 'spam' })
      ).status,
    ).toBe(401);
    const reported = await alice.agent
      .post(`/api/lolgram/comments/${clean.id}/report`)
      .send({ reason: 'harassment' });
    expect(reported.status).toBe(201);
    const again = await alice.agent
      .post(`/api/lolgram/comments/${clean.id}/report`)
      .send({ reason: 'spam' });
    expect(again.status).toBe(409);
    expect(
      (await alice.agent.post(`/api/lolgram/comments/${clean.id}/report`).send({ reason: 'nope' }))
        .status,
    ).toBe(400);
    const reportItem = (await queue()).find((q) => q.contentId === clean.id)!;
    expect(reportItem.contentType).toBe('comment');
    expect(
      (
        await alice.agent
          .post(`/api/lolgram/admin/moderation/${reportItem.id}`)
          .send({ decision: 'rejected' })
      ).status,
    ).toBe(403);
    const rejected = await admin.agent
      .post(`/api/lolgram/admin/moderation/${reportItem.id}`)
      .send({ decision: 'rejected' });
    expect(rejected.body).toMatchObject({ status: 'rejected', previousStatus: 'visible' });
    expect((await thread(bob, post.id)).map((c) => c.id)).toEqual([held.id]);
    expect(await countOf(post.id)).toBe(1);
    // Every decision is in the audit.
    const stats = (await admin.agent.get('/api/lolgram/admin/stats')).body as {
      recentDecisions: { contentId: string; decision: string }[];
    };
    expect(stats.recentDecisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ contentId: held.id, decision: 'approved' }),
        expect.objectContaining({ contentId: clean.id, decision: 'rejected' }),
      ]),
    );
    // A comment deleted while queued leaves the queue.
    const queued = expectAnswer(commentSchema, (await write(bob, post.id, PROFANE)).body);
    await expect
      .poll(async () => (await queue()).some((q) => q.contentId === queued.id))
      .toBe(true);
    expect((await bob.agent.delete(`/api/lolgram/comments/${queued.id}`)).status).toBe(204);
    await expect
      .poll(async () => (await queue()).some((q) => q.contentId === queued.id))
      .toBe(false);
  });

  it('checks an edited caption as a new one: a profane edit is held and queued, the post keeps its caption', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author, { caption: 'clean at first' });
    expect(
      (await author.agent.patch(`/api/lolgram/posts/${post.id}`).send({ caption: PROFANE })).status,
    ).toBe(200);
    await expect
      .poll(async () => (await queue()).find((q) => q.contentId === post.id)?.contentType)
      .toBe('post-edit');
    const shown = await request(server.url).get(`/api/lolgram/posts/${post.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.caption).toBe('clean at first');
  });

  it('limits comments per user and per post in a minute: 429 with Retry-After', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const fast = await makeAccount(server.url);
    for (let i = 0; i < PER_USER; i += 1)
      expect((await write(fast, post.id, `c${i}`)).status).toBe(201);
    const refused = await write(fast, post.id, 'one more');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: commentMessages.tooManyByUser });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const crowd = await Promise.all(Array.from({ length: 3 }, () => makeAccount(server.url)));
    const statuses: number[] = [];
    for (const who of crowd)
      for (let i = 0; i < 3; i += 1) statuses.push((await write(who, post.id, 'x')).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(PER_POST - PER_USER);
    const stranger = await makeAccount(server.url);
    const onPost = await write(stranger, post.id, 'mine');
    expect(onPost.status).toBe(429);
    expect(onPost.body).toEqual({ error: commentMessages.tooManyOnPost });
    expect(onPost.headers['retry-after']).toBeDefined();
    // The post's author, and those the author follows, are never refused by the post's limit.
    expect((await write(author, post.id, 'mine')).status).toBe(201);
    const friend = await makeAccount(server.url);
    const followed = await author.agent
      .post(`/api/lolgram/users/${friend.user.id}/follow`)
      .send({ followerId: author.user.id });
    expect(followed.status).toBe(200);
    expect((await write(friend, post.id, 'a friend')).status).toBe(201);
    const refusals = await server.metrics.registry
      .getSingleMetric('tapgram_comments_refused_for_post_total')
      ?.get();
    expect(refusals?.values[0]?.value).toBeGreaterThan(0);
  });

  it("gives a post's places back when a wave of comments is deleted within the minute", async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const wave = await Promise.all(
      Array.from({ length: Math.ceil(PER_POST / PER_USER) }, () => makeAccount(server.url)),
    );
    const written: { who: Account; id: string }[] = [];
    for (const who of wave) {
      for (let i = 0; i < PER_USER; i += 1) {
        const res = await write(who, post.id, `wave ${i}`);
        if (res.status === 201) written.push({ who, id: res.body.id });
      }
    }
    expect(written).toHaveLength(PER_POST);
    const late = await makeAccount(server.url);
    expect((await write(late, post.id, 'too late')).status).toBe(429);
    for (const { who, id } of written) {
      expect((await who.agent.delete(`/api/lolgram/comments/${id}`)).status).toBe(204);
    }
    // The thread is empty again, and open again to anyone.
    expect((await write(late, post.id, 'now there is room')).status).toBe(201);

    // Operators see the wave's accounts: each took part in it, and deleted its comments soon.
    const signals = await admin.agent.get('/api/lolgram/admin/comment-signals');
    expect(signals.status).toBe(200);
    const listed = expectAnswer(z.array(commentSignalSchema), signals.body);
    for (const who of wave) {
      expect(listed.find((s) => s.user.id === who.user.id)).toMatchObject({
        user: { username: who.user.username },
        waves: 1,
        deletedSoon: written.filter((w) => w.who === who).length,
        posts: 1,
      });
    }
    // Not the one it refused, nor the post's author.
    expect(listed.map((s) => s.user.id)).not.toContain(late.user.id);
    expect(listed.map((s) => s.user.id)).not.toContain(author.user.id);
    // For admins only.
    expect((await late.agent.get('/api/lolgram/admin/comment-signals')).status).toBe(403);
    expect((await request(server.url).get('/api/lolgram/admin/comment-signals')).status).toBe(401);
  });

  it('answers each call by who asks: anonymous, owner, another user, a blocked user, an admin', async () => {
    const [owner, another, blocked] = await Promise.all([
      makeAccount(server.url),
      makeAccount(server.url),
      makeAccount(server.url),
    ]);
    const post = await makeVisiblePost(owner);
    const ownersComment = await comment(owner, post.id, 'by the owner');
    expect((await owner.agent.post(`/api/lolgram/users/${blocked.user.id}/block`)).status).toBe(
      200,
    );
    type Who = 'anonymous' | 'owner' | 'another' | 'blocked' | 'admin';
    const agents: Record<Who, Account | null> = { anonymous: null, owner, another, blocked, admin };
    const calls: {
      name: string;
      send: (who: Account | null) => Promise<request.Response>;
      expected: Record<Who, number>;
    }[] = [
      {
        name: 'GET thread',
        send: (who) =>
          (who ? who.agent : request(server.url)).get(`/api/lolgram/posts/${post.id}/comments`),
        expected: { anonymous: 200, owner: 200, another: 200, blocked: 200, admin: 200 },
      },
      {
        name: 'POST comment',
        send: (who) =>
          (who ? who.agent : request(server.url))
            .post(`/api/lolgram/posts/${post.id}/comments`)
            .send({ text: 'hi' }),
        expected: { anonymous: 401, owner: 201, another: 201, blocked: 403, admin: 201 },
      },
      {
        name: 'POST reply',
        send: (who) =>
          (who ? who.agent : request(server.url))
            .post(`/api/lolgram/posts/${post.id}/comments`)
            .send({ text: 'hi', parentId: ownersComment.id }),
        expected: { anonymous: 401, owner: 201, another: 201, blocked: 403, admin: 201 },
      },
      {
        name: 'POST report',
        send: (who) =>
          (who ? who.agent : request(server.url))
            .post(`/api/lolgram/comments/${ownersComment.id}/report`)
            .send({ reason: 'spam' }),
        expected: { anonymous: 401, owner: 400, another: 201, blocked: 404, admin: 201 },
      },
      {
        name: 'PUT comments-off',
        send: (who) =>
          (who ? who.agent : request(server.url)).put(`/api/lolgram/posts/${post.id}/comments-off`),
        expected: { anonymous: 401, owner: 200, another: 403, blocked: 403, admin: 403 },
      },
      {
        name: 'DELETE comments-off',
        send: (who) =>
          (who ? who.agent : request(server.url)).delete(
            `/api/lolgram/posts/${post.id}/comments-off`,
          ),
        expected: { anonymous: 401, owner: 200, another: 403, blocked: 403, admin: 403 },
      },
      {
        name: 'DELETE comment',
        send: (who) =>
          (who ? who.agent : request(server.url)).delete(
            `/api/lolgram/comments/${ownersComment.id}`,
          ),
        expected: { anonymous: 401, another: 403, blocked: 404, admin: 403, owner: 204 },
      },
    ];
    const answered: string[] = [];
    const wanted: string[] = [];
    for (const call of calls) {
      for (const who of Object.keys(call.expected) as Who[]) {
        const res = await call.send(agents[who]);
        answered.push(`${call.name} as ${who}: ${res.status}`);
        wanted.push(`${call.name} as ${who}: ${call.expected[who]}`);
        if (res.status >= 400) expectAnswer(errorBodySchema, res.body);
      }
    }
    expect(answered).toEqual(wanted);
  });
});
