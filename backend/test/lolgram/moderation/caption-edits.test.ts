import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  moderationDecisionAnswerSchema,
  moderationQueueEntrySchema,
  postSchema,
  type Post,
} from '@tapgram/shared';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { createScratchDatabase } from '../../../test-support/services';
import { expectAnswer } from '../../helpers/answers';
import { makeAccount, type Account } from '../builders';
import { makeVisiblePost } from '../post-checks';
import { makeAdmin } from './builders';

const PROFANE = 'this meme is fucking hilarious';
// A profane caption is held for a moderator (the word list scores it 0.6).
const HOLD_PROFANITY = { MODERATION_HOLD_THRESHOLD: '0.55' };
const posts = z.array(postSchema);
const queueEntries = z.array(moderationQueueEntrySchema);

describe('an edited caption, checked as a new post is', () => {
  let server: TestServer;
  let author: Account;
  let other: Account;
  let admin: Account;
  beforeAll(async () => {
    server = await startTestServer({ env: HOLD_PROFANITY });
    author = await makeAccount(server.url);
    other = await makeAccount(server.url);
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const edit = (postId: string, caption: string) =>
    author.agent.patch(`/api/lolgram/posts/${postId}`).send({ caption });
  /** The post as one reader sees it: on its page, in the feed, and in its author's grid. */
  const seen = async (who: request.Agent, postId: string) => {
    const page = expectAnswer(postSchema, (await who.get(`/api/lolgram/posts/${postId}`)).body);
    const feed = expectAnswer(posts, (await who.get('/api/lolgram/posts/feed?limit=50')).body);
    const grid = expectAnswer(
      posts,
      (await who.get(`/api/lolgram/posts/user/${author.user.id}?limit=50`)).body,
    );
    const inFeed = feed.find((p) => p.id === postId);
    const inGrid = grid.find((p) => p.id === postId);
    const of = (post: Post | undefined) => post && [post.caption, post.editModeration ?? 'public'];
    return { page: of(page), feed: of(inFeed), grid: of(inGrid) };
  };
  const everywhere = (caption: string, standing: string) => {
    const shown = [caption, standing];
    return { page: shown, feed: shown, grid: shown };
  };
  const publicly = async (postId: string) => {
    const views = [
      await seen(request.agent(server.url), postId),
      await seen(other.agent, postId),
      await seen(admin.agent, postId),
    ];
    expect(views[1]).toEqual(views[0]);
    expect(views[2]).toEqual(views[0]);
    return views[0];
  };
  /** The description a link unfurler reads on the post's page. */
  const previewOf = async (postId: string) => {
    const res = await request(server.url).get(`/lolgram/p/${postId}`);
    expect(res.status).toBe(200);
    return /<meta property="og:description" content="([^"]*)"/.exec(res.text)?.[1];
  };
  const queue = async () =>
    expectAnswer(
      queueEntries,
      (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body,
    ).filter((item) => item.contentType === 'post-edit');

  it('shows the edit to its author alone, as checking, until its check passes', async () => {
    const post = await makeVisiblePost(author, { caption: 'before' });
    expect(await publicly(post.id)).toEqual(everywhere('before', 'public'));
    expect(await previewOf(post.id)).toBe('before');
    // The check cannot end while another transaction holds the post: it waits for this one.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM posts WHERE id = $1 FOR SHARE', [post.id]);

      const res = await edit(post.id, '  after  ');
      expect(res.status).toBe(200);
      expect(expectAnswer(postSchema, res.body)).toMatchObject({
        caption: 'after',
        editModeration: 'checking',
      });
      expect(await seen(author.agent, post.id)).toEqual(everywhere('after', 'checking'));
      expect(await publicly(post.id)).toEqual(everywhere('before', 'public'));
      expect(await previewOf(post.id)).toBe('before');
      const { rows } = await server.db.pool.query('SELECT caption FROM posts WHERE id = $1', [
        post.id,
      ]);
      expect(rows[0].caption).toBe('before');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    await expect.poll(async () => (await publicly(post.id)).page?.[0]).toBe('after');
    expect(await publicly(post.id)).toEqual(everywhere('after', 'public'));
    expect(await seen(author.agent, post.id)).toEqual(everywhere('after', 'public'));
    expect(await previewOf(post.id)).toBe('after');
    expect((await queue()).map((item) => item.contentId)).not.toContain(post.id);
  });

  it('never shows an edit that fails its check: held for a moderator, who drops or shows it', async () => {
    const post = await makeVisiblePost(author, { caption: 'clean at first' });
    expect((await edit(post.id, PROFANE)).status).toBe(200);
    await expect
      .poll(async () => (await seen(author.agent, post.id)).page)
      .toEqual([PROFANE, 'held']);
    expect(await seen(author.agent, post.id)).toEqual(everywhere(PROFANE, 'held'));
    // The post stays public, with the caption it had.
    expect(await publicly(post.id)).toEqual(everywhere('clean at first', 'public'));
    const item = (await queue()).find((entry) => entry.contentId === post.id);
    expect(item).toMatchObject({
      reason: 'Edit, automatic check 0.60, held: caption has profanity',
      'post-edit': { caption: 'clean at first', editedCaption: PROFANE, status: 'held' },
    });

    const rejected = await admin.agent
      .post(`/api/lolgram/admin/moderation/${item!.id}`)
      .send({ decision: 'rejected' });
    expect(expectAnswer(moderationDecisionAnswerSchema, rejected.body)).toMatchObject({
      status: 'rejected',
      previousStatus: 'held',
      postStatus: null,
    });
    expect(await seen(author.agent, post.id)).toEqual(everywhere('clean at first', 'public'));
    expect(await publicly(post.id)).toEqual(everywhere('clean at first', 'public'));

    // Held again, then approved: the edit is shown.
    expect((await edit(post.id, `${PROFANE}, really`)).status).toBe(200);
    await expect.poll(async () => (await queue()).some((q) => q.contentId === post.id)).toBe(true);
    const again = (await queue()).find((entry) => entry.contentId === post.id)!;
    const approved = await admin.agent
      .post(`/api/lolgram/admin/moderation/${again.id}`)
      .send({ decision: 'approved' });
    expect(approved.body).toMatchObject({ status: 'visible', previousStatus: 'held' });
    await expect
      .poll(async () => (await publicly(post.id)).feed)
      .toEqual([`${PROFANE}, really`, 'public']);
  });

  it('replaces a held edit with a newer one, whose check alone decides, and withdraws its item', async () => {
    const post = await makeVisiblePost(author, { caption: 'first' });
    expect((await edit(post.id, PROFANE)).status).toBe(200);
    await expect.poll(async () => (await queue()).some((q) => q.contentId === post.id)).toBe(true);
    expect((await edit(post.id, 'second thoughts')).status).toBe(200);
    await expect.poll(async () => (await publicly(post.id)).page?.[0]).toBe('second thoughts');
    expect((await queue()).some((q) => q.contentId === post.id)).toBe(false);
    expect(await seen(author.agent, post.id)).toEqual(everywhere('second thoughts', 'public'));
  });

  it('withdraws a held edit when its post is deleted', async () => {
    const post = await makeVisiblePost(author, { caption: 'short-lived' });
    expect((await edit(post.id, PROFANE)).status).toBe(200);
    await expect.poll(async () => (await queue()).some((q) => q.contentId === post.id)).toBe(true);
    expect((await author.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(204);
    await expect.poll(async () => (await queue()).some((q) => q.contentId === post.id)).toBe(false);
  });
});

describe('an edit whose check a stopped server never ran', () => {
  it('is checked at start-up: shown when it passes, held when it fails, public nowhere meanwhile', async () => {
    const database = await createScratchDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-edit-recheck-'));
    const env = { DATA_DIR: dataDir, ...HOLD_PROFANITY };
    const first = await startTestServer({ databaseUrl: database.url, env, dataDir });
    let second: TestServer | undefined;
    try {
      const writer = await makeAccount(first.url);
      const fine = await makeVisiblePost(writer, { caption: 'fine before' });
      const rude = await makeVisiblePost(writer, { caption: 'rude before' });
      // As if the server had died between the edits' answers and their checks.
      await first.db.pool.query(
        `INSERT INTO post_caption_edits (post_id, caption) VALUES ($1, 'fine after'), ($2, $3)`,
        [fine.id, rude.id, PROFANE],
      );
      const caption = async (server: TestServer, id: string) =>
        expectAnswer(postSchema, (await request(server.url).get(`/api/lolgram/posts/${id}`)).body)
          .caption;
      expect(await caption(first, rude.id)).toBe('rude before');
      await first.stop();

      second = await startTestServer({ databaseUrl: database.url, env, dataDir });
      const started = second;
      await expect.poll(() => caption(started, fine.id), { timeout: 20_000 }).toBe('fine after');
      const editOf = async (id: string) =>
        (
          await started.db.pool.query(
            'SELECT status, ai_score::text AS score FROM post_caption_edits WHERE post_id = $1',
            [id],
          )
        ).rows[0];
      await expect
        .poll(() => editOf(rude.id), { timeout: 20_000 })
        .toEqual({
          status: 'held',
          score: '0.600',
        });
      expect(await editOf(fine.id)).toBeUndefined();
      expect(await caption(started, rude.id)).toBe('rude before');
      const { rows } = await started.db.pool.query(
        `SELECT reason FROM moderation_queue
          WHERE content_type = 'post-edit' AND content_id = $1 AND status = 'pending'`,
        [rude.id],
      );
      expect(rows[0].reason).toMatch(/held: caption has profanity/);
    } finally {
      await second?.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
