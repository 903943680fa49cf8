import {
  avatarAnswerSchema,
  errorBodySchema,
  lolgramUserSchema,
  lolStateSchema,
  postSchema,
} from '@tapgram/shared';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg, makePost, TestWallet } from './builders';
import { makeAdmin } from './moderation/builders';
import { checked, makeVisiblePost } from './post-checks';

// These suites test posts, not the image model: the automatic check runs on the caption alone.
const CAPTION_CHECK_ONLY = { MODERATION_IMAGE_CHECK: 'off' };
const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('LOLGram posts, images, LOLs and views', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: CAPTION_CHECK_ONLY });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates a post whose stored images carry no EXIF or GPS, a full size and a thumbnail', async () => {
    const account = await makeAccount(server.url);
    const original = await makeJpeg({ width: 2000, height: 1500, gps: true });
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await makePost(account, original, {
      location: JSON.stringify({ name: 'London', lat: 0, lng: 0 }),
    });
    expect(res.status).toBe(201);
    expectAnswer(postSchema, res.body);
    expect(res.body).toMatchObject({
      userId: account.user.id,
      username: account.user.username,
      caption: 'when the build passes on the first try',
      location: { name: 'London', lat: 0, lng: 0 },
      lolCount: 0,
      isLiked: false,
      commentCount: 0,
      canMintNFT: false,
    });
    // Checking, unless its check (which starts once the post is committed) ended before the
    // answer read it back: then it is public already.
    expect([undefined, 'checking']).toContain(res.body.moderation);
    expect(await checked(account, res.body.id)).toBe('visible');
    const full = await request(server.url).get(res.body.imageUrl).buffer(true);
    expect(full.status).toBe(200);
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, s-maxage=600, immutable');
    const fullMeta = await sharp(full.body).metadata();
    expect(fullMeta.exif).toBeUndefined();
    expect(Math.max(fullMeta.width!, fullMeta.height!)).toBe(1080);
    const thumb = await sharp(
      (await request(server.url).get(res.body.thumbnailUrl).buffer(true)).body,
    ).metadata();
    expect([thumb.width, thumb.height, thumb.exif]).toEqual([320, 320, undefined]);
    const author = await request(server.url).get(`/api/lolgram/users/${account.user.id}`);
    expect(expectAnswer(lolgramUserSchema, author.body).postCount).toBe(1);
  });

  it('refuses posts as someone else, without a session, without a caption, or with a bad image', async () => {
    const alice = await makeAccount(server.url);
    const bob = await makeAccount(server.url);
    const jpeg = await makeJpeg();
    expect((await makePost(alice, jpeg, { userId: bob.user.id })).status).toBe(403);
    const anonymous = await request(server.url)
      .post('/api/lolgram/posts')
      .field('caption', 'hi')
      .field('userId', alice.user.id)
      .attach('image', jpeg, 'a.jpg');
    expect(anonymous.status).toBe(401);
    const blank = await makePost(alice, jpeg, { caption: '   ' });
    expect(blank.status).toBe(400);
    expect(expectAnswer(errorBodySchema, blank.body)).toEqual({ error: 'Caption is required' });
    expect((await makePost(alice, jpeg, { caption: 'x'.repeat(2201) })).status).toBe(400);
    const text = await alice.agent
      .post('/api/lolgram/posts')
      .field('caption', 'not an image')
      .field('userId', alice.user.id)
      .attach('image', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), {
        filename: 'cat.jpg',
        contentType: 'image/jpeg',
      });
    expect(text.status).toBe(415);
    expectAnswer(errorBodySchema, text.body);
    const big = await alice.agent
      .post('/api/lolgram/posts')
      .field('caption', 'huge')
      .field('userId', alice.user.id)
      .attach('image', Buffer.alloc(10 * 1024 * 1024 + 1), 'big.jpg');
    expect(big.status).toBe(413);
    expectAnswer(errorBodySchema, big.body);
    // A decompression bomb: a tiny file that declares a gigantic image.
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect((await makePost(alice, bomb)).status).toBe(413);
    expect(
      (await request(server.url).get(`/api/lolgram/users/${alice.user.id}`)).body.postCount,
    ).toBe(0);
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM posts WHERE user_id = $1',
      [alice.user.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('lists the feed newest first with a cursor, and a user’s posts', async () => {
    const account = await makeAccount(server.url);
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await makeVisiblePost(account, { caption: `post ${i}` })).id);
    const posts = async (path: string) =>
      expectAnswer(postSchema.array(), (await request(server.url).get(path)).body);
    const page1 = await posts('/api/lolgram/posts/feed?limit=2');
    expect(page1.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const page2 = await posts(`/api/lolgram/posts/feed?limit=2&before=${page1[1].cursor}`);
    expect(page2[0].id).toBe(ids[0]);
    const mine = await posts(`/api/lolgram/posts/user/${account.user.id}`);
    expect(mine.map((p) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await request(server.url).get('/api/lolgram/posts/feed?before=garbage')).status).toBe(
      400,
    );
  });

  it('shows one post on its own page, a post not public only to its author and admins', async () => {
    const author = await makeAccount(server.url);
    const stranger = await makeAccount(server.url);
    const admin = await makeAdmin(server);
    const post = await makeVisiblePost(author, { caption: 'a page of its own' });
    await stranger.agent.post(`/api/lolgram/posts/${post.id}/lol`).expect(200);
    const url = `/api/lolgram/posts/${post.id}`;

    const anonymous = await request(server.url).get(url);
    expect(anonymous.status).toBe(200);
    expect(expectAnswer(postSchema, anonymous.body)).toMatchObject({
      id: post.id,
      userId: author.user.id,
      username: author.user.username,
      caption: 'a page of its own',
      lolCount: 1,
      isLiked: false,
    });
    expect(expectAnswer(postSchema, (await stranger.agent.get(url)).body).isLiked).toBe(true);

    const seenBy = async (status: string) => {
      await server.db.pool.query('UPDATE posts SET status = $2 WHERE id = $1', [post.id, status]);
      return Promise.all(
        [request(server.url), stranger.agent, author.agent, admin.agent].map(
          async (agent) => (await agent.get(url)).status,
        ),
      );
    };
    expect(await seenBy('checking')).toEqual([404, 404, 200, 200]);
    expect(await seenBy('held')).toEqual([404, 404, 200, 200]);
    const held = await author.agent.get(url);
    expect(expectAnswer(postSchema, held.body).moderation).toBe('held');
    // A rejected post is gone for everyone, as its images are.
    expect(await seenBy('rejected')).toEqual([404, 404, 404, 404]);
    const gone = await author.agent.get(url);
    expect(expectAnswer(errorBodySchema, gone.body)).toEqual({ error: 'Post not found' });

    const missing = await request(server.url).get(`/api/lolgram/posts/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    for (const bad of ['123', 'not-an-id', `${post.id}x`, '%27%20OR%201%3D1']) {
      const res = await request(server.url).get(`/api/lolgram/posts/${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(expectAnswer(errorBodySchema, res.body)).toEqual({ error: 'Invalid id' });
    }
  });

  it('pages posts made in the same instant once each, by their ids', async () => {
    const account = await makeAccount(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1)
      ids.push((await makeVisiblePost(account, { caption: `tie ${i}` })).id);
    await server.db.pool.query(
      "UPDATE posts SET created_at = '2030-01-01T00:00:00Z' WHERE id = ANY($1::uuid[])",
      [ids],
    );
    const url = `/api/lolgram/posts/user/${account.user.id}`;
    const seen: string[] = [];
    let before = '';
    for (let page = 0; page < 5; page += 1) {
      const res = await request(server.url).get(`${url}?limit=1${before}`);
      expect(res.status).toBe(200);
      if (res.body.length === 0) break;
      seen.push(res.body[0].id);
      before = `&before=${res.body[0].cursor}`;
    }
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('pages a user’s posts with `before` and `limit` (30 by default, at most 50)', async () => {
    const account = await makeAccount(server.url);
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await makeVisiblePost(account, { caption: `p${i}` })).id);
    const url = `/api/lolgram/posts/user/${account.user.id}`;
    const posts = async (path: string) =>
      expectAnswer(postSchema.array(), (await request(server.url).get(path)).body);
    const first = await posts(`${url}?limit=2`);
    expect(first.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const next = await posts(`${url}?limit=2&before=${first[1].cursor}`);
    expect(next.map((p) => p.id)).toEqual([ids[0]]);
    expect((await request(server.url).get(`${url}?limit=51`)).status).toBe(400);
    expect((await request(server.url).get(`${url}?before=garbage`)).status).toBe(400);
  });

  it('answers 400, not 500, to cursors that look right but are not real times', async () => {
    const id = crypto.randomUUID();
    const bad = [
      `1-2-3|${id}`,
      `99:99|${id}`,
      `2024-02-31 10:00:00+00|${id}`,
      `2024-01-01 25:00:00+00|${id}`,
    ];
    for (const text of bad) {
      for (const path of ['/api/lolgram/posts/feed', `/api/lolgram/posts/user/${id}`]) {
        const res = await request(server.url).get(`${path}?before=${cursorOf(text)}`);
        expect([text, res.status]).toEqual([text, 400]);
      }
    }
    const good = cursorOf(`2024-01-01 10:00:00.123456+00|${id}`);
    expect((await request(server.url).get(`/api/lolgram/posts/feed?before=${good}`)).status).toBe(
      200,
    );
  });

  it('marks posts of wallet users as mintable', async () => {
    const wallet = new TestWallet();
    const agent = request.agent(server.url);
    const input = (
      await agent.post('/api/lolgram/auth/wallet/nonce').send({ address: wallet.address })
    ).body;
    const created = await agent.post('/api/lolgram/users/create').send({
      username: `wallet_${wallet.address.slice(0, 8)}`,
      password: wallet.address,
      walletAddress: wallet.address,
      proof: wallet.sign(input),
    });
    expect(created.status).toBe(201);
    const post = await agent
      .post('/api/lolgram/posts')
      .field('caption', 'minted')
      .field('userId', created.body.id)
      .attach('image', await makeJpeg(), 'a.jpg');
    expect(expectAnswer(postSchema, post.body).canMintNFT).toBe(true);
  });

  it('LOLs idempotently, per signed-in user, with exact counts', async () => {
    const author = await makeAccount(server.url);
    const fan = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    expect((await request(server.url).post(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(401);
    const lols = await Promise.all(
      [1, 2, 3].map(() => fan.agent.post(`/api/lolgram/posts/${post.id}/lol`)),
    );
    expect(lols.map((r) => r.status)).toEqual([200, 200, 200]);
    const authorLol = await author.agent.post(`/api/lolgram/posts/${post.id}/lol`);
    expect(expectAnswer(lolStateSchema, authorLol.body)).toEqual({ lolCount: 2, isLiked: true });
    const seenByFan = expectAnswer(
      postSchema.array(),
      (await fan.agent.get('/api/lolgram/posts/feed')).body,
    ).find((p) => p.id === post.id);
    expect(seenByFan).toMatchObject({ lolCount: 2, isLiked: true });
    expect((await fan.agent.delete(`/api/lolgram/posts/${post.id}/lol`)).body).toEqual({
      lolCount: 1,
      isLiked: false,
    });
    expect((await fan.agent.delete(`/api/lolgram/posts/${post.id}/lol`)).body).toEqual({
      lolCount: 1,
      isLiked: false,
    });
    expect((await fan.agent.post(`/api/lolgram/posts/${crypto.randomUUID()}/lol`)).status).toBe(
      404,
    );
  });

  it('counts a viewer once per post per hour, and a cookieless one by network', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const viewer = request.agent(server.url);
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await viewer.post('/api/lolgram/posts/views').send({ postIds: [post.id, post.id] }))
          .status,
      ).toBe(204);
    }
    // Dropping cookies (a new client each time) from the same address counts nothing more.
    for (let i = 0; i < 3; i += 1) {
      await request(server.url)
        .post('/api/lolgram/posts/views')
        .send({ postIds: [post.id] });
    }
    await author.agent.post('/api/lolgram/posts/views').send({ postIds: [post.id] });
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM post_views WHERE post_id = $1',
      [post.id],
    );
    expect(rows[0].n).toBe(2);
    expect((await viewer.post('/api/lolgram/posts/views').send({ postIds: ['nope'] })).status).toBe(
      400,
    );
  });

  it('sets a square avatar for oneself only', async () => {
    const alice = await makeAccount(server.url);
    const bob = await makeAccount(server.url);
    const image = await makeJpeg({ width: 900, height: 500 });
    const res = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}/avatar`)
      .attach('avatar', image, 'me.jpg');
    expect(res.status).toBe(200);
    const { user } = expectAnswer(avatarAnswerSchema, res.body);
    expect(user).toMatchObject({ id: alice.user.id, avatar: expect.any(String) });
    const meta = await sharp(
      (await request(server.url).get(String(user.avatar)).buffer(true)).body,
    ).metadata();
    expect(meta.width).toBe(meta.height);
    expect(
      (
        await bob.agent
          .put(`/api/lolgram/users/${alice.user.id}/avatar`)
          .attach('avatar', image, 'x.jpg')
      ).status,
    ).toBe(403);
  });
});

describe('the feed cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: CAPTION_CHECK_ONLY });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shows a new post as soon as its check ends, and each reader their own LOLs', async () => {
    const author = await makeAccount(server.url);
    const reader = await makeAccount(server.url);
    const first = await makeVisiblePost(author);
    await reader.agent.post(`/api/lolgram/posts/${first.id}/lol`);
    expect((await request(server.url).get('/api/lolgram/posts/feed')).body[0].id).toBe(first.id);
    const second = await makeVisiblePost(author);
    const anonymous = expectAnswer(
      postSchema.array(),
      (await request(server.url).get('/api/lolgram/posts/feed')).body,
    );
    expect(anonymous.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(anonymous.every((p) => !p.isLiked)).toBe(true);
    const mine = expectAnswer(
      postSchema.array(),
      (await reader.agent.get('/api/lolgram/posts/feed')).body,
    );
    expect(mine.map((p) => p.isLiked)).toEqual([false, true]);
  });

  it('shows a reader their own LOL and its count together, right after the LOL', async () => {
    const author = await makeAccount(server.url);
    const reader = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const feedEntry = async () => {
      const page = (await reader.agent.get('/api/lolgram/posts/feed')).body as {
        id: string;
        lolCount: number;
        isLiked: boolean;
      }[];
      const entry = page.find((p) => p.id === post.id);
      return entry && { lolCount: entry.lolCount, isLiked: entry.isLiked };
    };
    // The first read fills the shared page; the LOL that follows must show through it at once.
    expect(await feedEntry()).toEqual({ lolCount: 0, isLiked: false });
    await reader.agent.post(`/api/lolgram/posts/${post.id}/lol`).expect(200);
    expect(await feedEntry()).toEqual({ lolCount: 1, isLiked: true });
    await reader.agent.delete(`/api/lolgram/posts/${post.id}/lol`).expect(200);
    expect(await feedEntry()).toEqual({ lolCount: 0, isLiked: false });
  });
});
