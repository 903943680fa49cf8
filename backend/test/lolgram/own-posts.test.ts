import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CAPTION_MAX_LENGTH,
  errorBodySchema,
  lolgramUserSchema,
  locatedCountSchema,
  messages,
  postSchema,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { redisAvailable } from '../../test-support/availability';
import { expectAnswer } from '../helpers/answers';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, type Account } from './builders';
import { makeAdmin } from './moderation/builders';
import { makeVisiblePost } from './post-checks';

const posts = z.array(postSchema);
const LOCATION = JSON.stringify({ name: 'Swansea', lat: 0, lng: 0 });

describe.each(storageModes)('LOLGram authors and their own posts (%s storage)', (mode) => {
  let server: TestServer;
  let dataDir: string;
  let author: Account;
  let admin: Account;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-own-posts-'));
    // A clock that stands still: the feed's cached first page changes only when a write drops it.
    const now = Date.now();
    server = await startTestServer({ mode, dataDir, now: () => now });
    author = await makeAccount(server.url);
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const edit = (who: Account, postId: string, body: unknown) =>
    who.agent.patch(`/api/lolgram/posts/${postId}`).send(body as object);
  const feed = async () =>
    expectAnswer(posts, (await request(server.url).get('/api/lolgram/posts/feed')).body);

  it('changes a caption by the caption rules, in the feed once its check passes', async () => {
    const post = await makeVisiblePost(author, { caption: 'before' });
    expect((await feed()).find((p) => p.id === post.id)?.caption).toBe('before');
    const res = await edit(author, post.id, { caption: '  after, trimmed  ' });
    expect(res.status).toBe(200);
    expect(expectAnswer(postSchema, res.body)).toMatchObject({
      id: post.id,
      caption: 'after, trimmed',
    });
    // The shared first page read a moment ago is dropped as the edit is shown, not served on.
    await expect
      .poll(async () => (await feed()).find((p) => p.id === post.id)?.caption)
      .toBe('after, trimmed');

    for (const [body, error] of [
      [{ caption: '   ' }, messages.captionRequired],
      [{ caption: 'x'.repeat(CAPTION_MAX_LENGTH + 1) }, messages.captionTooLong],
      [{ caption: 'nul\u0000' }, messages.unstorableText],
      [{}, null],
      [{ caption: 42 }, null],
    ] as const) {
      const refused = await edit(author, post.id, body);
      expect(refused.status).toBe(400);
      const { error: said } = expectAnswer(errorBodySchema, refused.body);
      if (error) expect(said).toBe(error);
    }
    expect(
      expectAnswer(
        postSchema,
        (await request(server.url).get(`/api/lolgram/posts/${post.id}`)).body,
      ).caption,
    ).toBe('after, trimmed');
  });

  it('lets nobody but the author edit or delete: 401, 403 for a public post, else 404', async () => {
    const post = await makeVisiblePost(author);
    const other = await makeAccount(server.url);
    const api = request(server.url);
    expect((await api.patch(`/api/lolgram/posts/${post.id}`).send({ caption: 'x' })).status).toBe(
      401,
    );
    expect((await api.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(401);
    for (const who of [other, admin]) {
      const edited = await edit(who, post.id, { caption: 'not yours' });
      expect(edited.status).toBe(403);
      expect(edited.body).toEqual({ error: 'You can only edit your own posts' });
      const deleted = await who.agent.delete(`/api/lolgram/posts/${post.id}`);
      expect(deleted.status).toBe(403);
      expect(deleted.body).toEqual({ error: 'You can only delete your own posts' });
    }
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      expect((await edit(author, id, { caption: 'x' })).status).toBe(404);
      expect((await author.agent.delete(`/api/lolgram/posts/${id}`)).status).toBe(404);
    }
    expect(
      expectAnswer(postSchema, (await api.get(`/api/lolgram/posts/${post.id}`)).body).caption,
    ).toBe('when the build passes on the first try');
  });

  it('deletes a post out of every listing, with its image files, LOLs, saves and queue item', async () => {
    const post = await makeVisiblePost(author, { location: LOCATION });
    const fan = await makeAccount(server.url);
    expect((await fan.agent.post(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(200);
    expect((await fan.agent.post(`/api/lolgram/posts/${post.id}/save`)).status).toBe(200);
    expect(
      (await fan.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'spam' }))
        .status,
    ).toBe(201);
    const queued = async () =>
      (
        (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
          contentId: string;
        }[]
      ).some((item) => item.contentId === post.id);
    expect(await queued()).toBe(true);
    const postCount = async () =>
      expectAnswer(
        lolgramUserSchema,
        (await request(server.url).get(`/api/lolgram/users/${author.user.id}`)).body,
      ).postCount;
    const countBefore = await postCount();
    const files = path.join(dataDir, 'images', 'posts', post.id);
    expect((await fs.readdir(files)).length).toBeGreaterThanOrEqual(2);
    expect((await feed()).some((p) => p.id === post.id)).toBe(true);

    const deleted = await author.agent.delete(`/api/lolgram/posts/${post.id}`);
    expect(deleted.status).toBe(204);
    await server.events.settled();

    const api = request(server.url);
    expect((await api.get(`/api/lolgram/posts/${post.id}`)).status).toBe(404);
    for (const listing of [
      '/api/lolgram/posts/feed',
      '/api/lolgram/posts/located',
      `/api/lolgram/posts/user/${author.user.id}`,
    ]) {
      expect(
        expectAnswer(posts, (await author.agent.get(listing)).body).map((p) => p.id),
      ).not.toContain(post.id);
    }
    expect((await fan.agent.get(`/api/lolgram/users/${fan.user.id}/saved`)).body).toEqual([]);
    for (const url of [post.imageUrl, post.thumbnailUrl]) {
      expect((await api.get(url)).status).toBe(404);
    }
    await expect(fs.readdir(files)).resolves.toEqual([]);
    expect(await postCount()).toBe(countBefore - 1);
    expect(await queued()).toBe(false);
    const { rows } = await server.db.pool.query(
      'SELECT (SELECT count(*) FROM post_lols WHERE post_id = $1)::int AS lols, (SELECT count(*) FROM post_saves WHERE post_id = $1)::int AS saves',
      [post.id],
    );
    expect(rows[0]).toEqual({ lols: 0, saves: 0 });
    expect((await author.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(404);
  });

  it('pages the map’s located posts and counts every one of them, not a page', async () => {
    const mapper = await makeAccount(server.url);
    const located = [];
    for (let i = 0; i < 3; i += 1)
      located.push(await makeVisiblePost(mapper, { location: LOCATION }));
    await makeVisiblePost(mapper);
    const count = async () =>
      expectAnswer(
        locatedCountSchema,
        (await request(server.url).get('/api/lolgram/posts/located/count')).body,
      ).count;
    const { rows } = await server.db.pool.query(
      "SELECT count(*)::int AS n FROM posts WHERE status = 'visible' AND location_name IS NOT NULL",
    );
    expect(await count()).toBe(rows[0].n);
    expect(rows[0].n).toBeGreaterThanOrEqual(3);

    const page = async (query: string) =>
      expectAnswer(
        posts,
        (await request(server.url).get(`/api/lolgram/posts/located?${query}`)).body,
      );
    const first = await page('limit=2');
    expect(first.map((p) => p.id)).toEqual([located[2].id, located[1].id]);
    expect(first.every((p) => p.location?.name === 'Swansea')).toBe(true);
    const next = await page(`limit=2&before=${encodeURIComponent(first[1].cursor)}`);
    expect(next[0].id).toBe(located[0].id);
    for (const query of ['limit=0', 'limit=51', 'before=nonsense']) {
      expect((await request(server.url).get(`/api/lolgram/posts/located?${query}`)).status).toBe(
        400,
      );
    }
  });
});

describe.runIf(await redisAvailable())('a post deleted on one node', () => {
  let a: TestServer;
  let b: TestServer;
  const now = Date.now();
  beforeAll(async () => {
    a = await startTestServer({ mode: 'redis' });
    // B's clock stands still: its copy of the feed's first page never grows old by itself.
    b = await startTestServer({
      mode: 'redis',
      databaseUrl: a.databaseUrl,
      redisPrefix: a.redisPrefix,
      now: () => now,
    });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('leaves the feed that another node holds in its cache', async () => {
    const author = await makeAccount(a.url);
    const post = await makeVisiblePost(author);
    const feedOnB = async () =>
      expectAnswer(posts, (await request(b.url).get('/api/lolgram/posts/feed')).body).map(
        (p) => p.id,
      );
    expect(await feedOnB()).toContain(post.id);
    const heard = new Promise<void>((resolve) =>
      b.events.on('post.deleted', () => resolve(), { where: 'every-node' }),
    );
    expect((await author.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(204);
    await heard;
    await b.events.settled();
    expect(await feedOnB()).not.toContain(post.id);
  });
});
