import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeAccount, makeJpeg, makeName, makePost, type Account } from '../lolgram/builders';

const PROFANE = 'this meme is fucking hilarious';

describe('moderation and admin', () => {
  let server: TestServer;
  let admin: Account;
  let user: Account;
  const adminName = makeName('boss');
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        ADMIN_USERNAMES: adminName,
        MODERATION_HOLD_THRESHOLD: '0.55',
        MODERATION_REPORTS_PER_HOUR: '3',
      },
    });
    admin = await makeAccount(server.url, adminName);
    user = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const queue = async () =>
    (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
      id: string;
      contentId: string;
      aiScore: string;
      reason: string;
      reportCount: number;
    }[];
  const itemFor = async (postId: string) =>
    (await queue()).find((item) => item.contentId === postId);
  const feedIds = async () =>
    (await request(server.url).get('/api/lolgram/posts/feed?limit=50')).body.map(
      (p: { id: string }) => p.id,
    );

  it('checks the role of every admin call on the server: 401 anonymous, 403 user, 200 admin', async () => {
    const calls = [
      (a: request.Agent) => a.get('/api/lolgram/admin/moderation/queue'),
      (a: request.Agent) => a.get('/api/lolgram/admin/stats'),
      (a: request.Agent) => a.get('/api/lolgram/analytics/popular?timeframe=week&limit=10'),
      (a: request.Agent) =>
        a
          .post(`/api/lolgram/admin/moderation/${crypto.randomUUID()}`)
          .send({ decision: 'approved' }),
    ];
    expect((await admin.agent.get('/api/lolgram/users/me')).body.isAdmin).toBe(true);
    expect((await user.agent.get('/api/lolgram/users/me')).body.isAdmin).toBe(false);
    for (const call of calls) {
      expect((await call(request.agent(server.url))).status).toBe(401);
      expect((await call(user.agent)).status).toBe(403);
      expect([200, 404]).toContain((await call(admin.agent)).status);
    }
  });

  it('scores new posts: a clean one stays out of the queue, a profane caption above the hold threshold is held', async () => {
    const clean = (await makePost(user, await makeJpeg(), { caption: 'a cat wearing sunglasses' }))
      .body;
    expect(clean.moderation).toBe('checking');
    const rude = (await makePost(user, await makeJpeg(), { caption: PROFANE })).body;
    await expect.poll(() => itemFor(rude.id), { timeout: 20_000 }).toBeDefined();
    const item = (await itemFor(rude.id))!;
    expect(Number(item.aiScore)).toBeGreaterThanOrEqual(0.55);
    expect(item.aiScore).toMatch(/^\d\.\d+$/);
    expect(item.reason).toMatch(/caption has profanity/);
    expect(await itemFor(clean.id)).toBeUndefined();
    await expect.poll(feedIds, { timeout: 20_000 }).not.toContain(rude.id);
    expect(await feedIds()).toContain(clean.id);

    // Approving a held post shows it again.
    const approved = await admin.agent.post(`/api/lolgram/admin/moderation/${item.id}`).send({
      moderatorId: 'admin-placeholder',
      decision: 'approved',
      notes: 'Content approved by admin',
    });
    expect(approved.status).toBe(200);
    expect(approved.body.moderatorId).toBe(admin.user.id);
    expect(await feedIds()).toContain(rude.id);
    const audit = await server.db.pool.query(
      'SELECT moderator_id, decision, notes FROM moderation_decisions WHERE queue_id = $1',
      [item.id],
    );
    expect(audit.rows).toEqual([
      { moderator_id: admin.user.id, decision: 'approved', notes: 'Content approved by admin' },
    ]);
    await expect(
      server.db.pool.query('DELETE FROM moderation_decisions WHERE queue_id = $1', [item.id]),
    ).rejects.toThrow(/append-only/);
  });

  it('takes reports once per user per post into one queue item, and limits abuse with 429', async () => {
    const author = await makeAccount(server.url);
    const post = (await makePost(author, await makeJpeg(), { caption: 'totally fine' })).body;
    const reporters = [await makeAccount(server.url), await makeAccount(server.url)];
    expect(
      (
        await request(server.url)
          .post(`/api/lolgram/posts/${post.id}/report`)
          .send({ reason: 'spam' })
      ).status,
    ).toBe(401);
    expect(
      (
        await reporters[0].agent
          .post(`/api/lolgram/posts/${post.id}/report`)
          .send({ reason: 'spam' })
      ).status,
    ).toBe(201);
    expect(
      (
        await reporters[0].agent
          .post(`/api/lolgram/posts/${post.id}/report`)
          .send({ reason: 'spam' })
      ).status,
    ).toBe(409);
    expect(
      (
        await reporters[1].agent
          .post(`/api/lolgram/posts/${post.id}/report`)
          .send({ reason: 'offensive' })
      ).status,
    ).toBe(201);
    expect(
      (await reporters[1].agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: '' }))
        .status,
    ).toBe(400);
    const item = await itemFor(post.id);
    expect(item).toMatchObject({ reportCount: 2 });
    expect(item!.reason).toMatch(/spam/);
    expect(item!.reason).toMatch(/offensive/);

    const busy = reporters[0];
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      const target = (await makePost(author, await makeJpeg(), { caption: `post ${i}` })).body;
      statuses.push(
        (await busy.agent.post(`/api/lolgram/posts/${target.id}/report`).send({ reason: 'spam' }))
          .status,
      );
    }
    expect(statuses).toEqual([201, 201, 429]);
  });

  it('rejects a post out of every listing and stops serving its images; a second decision is 409', async () => {
    const author = await makeAccount(server.url);
    const post = (await makePost(author, await makeJpeg(), { caption: 'report me' })).body;
    await user.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'offensive' });
    const item = (await itemFor(post.id))!;
    expect(
      (
        await admin.agent
          .post(`/api/lolgram/admin/moderation/${item.id}`)
          .send({ decision: 'maybe' })
      ).status,
    ).toBe(400);
    const rejected = await admin.agent
      .post(`/api/lolgram/admin/moderation/${item.id}`)
      .send({ decision: 'rejected', notes: 'Content violates community guidelines' });
    expect(rejected.status).toBe(200);
    expect(await feedIds()).not.toContain(post.id);
    const own = (await request(server.url).get(`/api/lolgram/posts/user/${author.user.id}`)).body;
    expect(own.map((p: { id: string }) => p.id)).not.toContain(post.id);
    expect((await request(server.url).get(post.imageUrl)).status).toBe(404);
    expect((await request(server.url).get(post.thumbnailUrl)).status).toBe(404);
    expect(
      (await request(server.url).get(`/api/lolgram/users/${author.user.id}`)).body.postCount,
    ).toBe(0);
    const again = await admin.agent
      .post(`/api/lolgram/admin/moderation/${item.id}`)
      .send({ decision: 'approved' });
    expect(again.status).toBe(409);
    expect(await itemFor(post.id)).toBeUndefined();
  });

  it('lets only one of two moderators deciding at once win', async () => {
    const second = makeName('boss2');
    await makeAccount(server.url, second);
    await server.db.pool.query("UPDATE lolgram_users SET role = 'admin' WHERE username = $1", [
      second,
    ]);
    const other = request.agent(server.url);
    await other
      .post('/api/lolgram/users/login')
      .send({ username: second, password: 'correct horse battery' });
    const author = await makeAccount(server.url);
    const post = (await makePost(author, await makeJpeg(), { caption: 'contested' })).body;
    await user.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'spam' });
    const item = (await itemFor(post.id))!;
    const [a, b] = await Promise.all([
      admin.agent.post(`/api/lolgram/admin/moderation/${item.id}`).send({ decision: 'approved' }),
      other.post(`/api/lolgram/admin/moderation/${item.id}`).send({ decision: 'rejected' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM moderation_decisions WHERE queue_id = $1',
      [item.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers popular posts from recorded views, and the dashboard figures', async () => {
    const author = await makeAccount(server.url);
    const post = (await makePost(author, await makeJpeg(), { caption: 'viral' })).body;
    for (let i = 0; i < 3; i += 1) {
      await request
        .agent(server.url)
        .post('/api/lolgram/posts/views')
        .send({ postIds: [post.id] });
    }
    const popular = (
      await admin.agent.get('/api/lolgram/analytics/popular?timeframe=week&limit=10')
    ).body;
    expect(popular[0]).toEqual({ post_id: post.id, view_count: 3 });
    expect((await admin.agent.get('/api/lolgram/analytics/popular?timeframe=year')).status).toBe(
      400,
    );
    const stats = (await admin.agent.get('/api/lolgram/admin/stats')).body;
    expect(stats.users).toBeGreaterThanOrEqual(3);
    expect(stats.health).toEqual({ database: 'ok', redis: 'not configured' });
    expect(stats.daily).toHaveLength(7);
    expect(stats.daily[6].posts).toBeGreaterThanOrEqual(1);
    expect(stats.recentDecisions.length).toBeGreaterThanOrEqual(1);
    expect(stats.reportsByReason.map((r: { reason: string }) => r.reason)).toContain('spam');
  });
});
