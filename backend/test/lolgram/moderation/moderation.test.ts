import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { makeAccount, makeJpeg, makeName, makePost, type Account } from '../builders';
import { makeAdmin } from './builders';
import { checked, makeVisiblePost } from '../post-checks';

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
        MODERATION_IMAGE_CHECK: 'on',
      },
    });
    admin = await makeAdmin(server, adminName);
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
  const postCount = async (account: Account) =>
    (await request(server.url).get(`/api/lolgram/users/${account.user.id}`)).body.postCount;
  const decide = (queueId: string, decision: string, who = admin) =>
    who.agent.post(`/api/lolgram/admin/moderation/${queueId}`).send({ decision });

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

  it('guards every /admin path before answering 404 for an unknown one', async () => {
    const path = '/api/lolgram/admin/no-such-thing';
    expect((await request(server.url).get(path)).status).toBe(401);
    expect((await user.agent.get(path)).status).toBe(403);
    expect((await admin.agent.get(path)).status).toBe(404);
  });

  it('scores new posts: a clean one becomes visible, a profane caption above the hold threshold is held and not counted', async () => {
    const author = await makeAccount(server.url);
    const clean = (await makePost(author, await makeJpeg(), { caption: 'a cat in sunglasses' }))
      .body;
    expect(clean.moderation).toBe('checking');
    const rude = (await makePost(author, await makeJpeg(), { caption: PROFANE })).body;
    expect(await checked(author, rude.id)).toBe('held');
    expect(await checked(author, clean.id)).toBe('visible');
    const item = (await itemFor(rude.id))!;
    expect(Number(item.aiScore)).toBeGreaterThanOrEqual(0.55);
    expect(item.aiScore).toMatch(/^\d\.\d+$/);
    expect(item.reason).toMatch(/caption has profanity/);
    expect(await itemFor(clean.id)).toBeUndefined();
    expect(await feedIds()).not.toContain(rude.id);
    expect(await feedIds()).toContain(clean.id);
    expect(await postCount(author)).toBe(1);

    // Approving a held post shows it and counts it.
    const approved = await admin.agent.post(`/api/lolgram/admin/moderation/${item.id}`).send({
      moderatorId: 'admin-placeholder',
      decision: 'approved',
      notes: 'Content approved by admin',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({
      id: item.id,
      decision: 'approved',
      moderatorId: admin.user.id,
      postStatus: 'visible',
      previousPostStatus: 'held',
      status: 'visible',
      previousStatus: 'held',
    });
    expect(await feedIds()).toContain(rude.id);
    expect(await postCount(author)).toBe(2);
    const audit = await server.db.pool.query(
      'SELECT moderator_id, decision, notes FROM moderation_decisions WHERE queue_id = $1',
      [item.id],
    );
    expect(audit.rows).toEqual([
      { moderator_id: admin.user.id, decision: 'approved', notes: 'Content approved by admin' },
    ]);
  });

  it('keeps the audit trail append-only: no update, no delete, no truncate', async () => {
    const pool = server.db.pool;
    await expect(pool.query('DELETE FROM moderation_decisions')).rejects.toThrow(/append-only/);
    await expect(pool.query("UPDATE moderation_decisions SET notes = 'x'")).rejects.toThrow(
      /append-only/,
    );
    await expect(pool.query('TRUNCATE moderation_decisions')).rejects.toThrow(/append-only/);
    await expect(pool.query('TRUNCATE moderation_queue CASCADE')).rejects.toThrow(/append-only/);
  });

  it('rejects a post out of every listing and stops serving its images; a second decision is 409', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author, { caption: 'report me' });
    expect(await postCount(author)).toBe(1);
    await user.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'offensive' });
    const item = (await itemFor(post.id))!;
    expect((await decide(item.id, 'maybe')).status).toBe(400);
    const rejected = await decide(item.id, 'rejected');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ postStatus: 'rejected', previousPostStatus: 'visible' });
    expect(await feedIds()).not.toContain(post.id);
    for (const who of [request.agent(server.url), author.agent, admin.agent]) {
      const own = (await who.get(`/api/lolgram/posts/user/${author.user.id}`)).body;
      expect(own.map((p: { id: string }) => p.id)).not.toContain(post.id);
      expect((await who.get(post.imageUrl)).status).toBe(404);
      expect((await who.get(post.thumbnailUrl)).status).toBe(404);
    }
    expect(await postCount(author)).toBe(0);
    expect((await decide(item.id, 'approved')).status).toBe(409);
    expect(await itemFor(post.id)).toBeUndefined();
  });

  it('approves a never-hidden post without changing it, and never brings a rejected post back', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author, { caption: 'harmless' });
    await user.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'spam' });
    const kept = await decide((await itemFor(post.id))!.id, 'approved');
    expect(kept.body).toMatchObject({ postStatus: 'visible', previousPostStatus: 'visible' });
    expect(await postCount(author)).toBe(1);

    const gone = await makeVisiblePost(author, { caption: 'gone for good' });
    await user.agent.post(`/api/lolgram/posts/${gone.id}/report`).send({ reason: 'offensive' });
    await decide((await itemFor(gone.id))!.id, 'rejected');
    // A stale item for the rejected post (left by an older version, say) is approved.
    const { rows } = await server.db.pool.query<{ id: string }>(
      `INSERT INTO moderation_queue (content_type, content_id, reason) VALUES ('post', $1, 'stale')
       RETURNING id`,
      [gone.id],
    );
    const stale = await decide(rows[0].id, 'approved');
    expect(stale.body).toMatchObject({ postStatus: 'rejected', previousPostStatus: 'rejected' });
    expect(await feedIds()).not.toContain(gone.id);
    expect(await postCount(author)).toBe(1);
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
    const post = await makeVisiblePost(author, { caption: 'contested' });
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
    const post = await makeVisiblePost(author, { caption: 'viral' });
    for (let i = 0; i < 3; i += 1) {
      const viewer = await makeAccount(server.url);
      await viewer.agent.post('/api/lolgram/posts/views').send({ postIds: [post.id] });
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
    expect(stats.health).toMatchObject({ database: 'ok', redis: 'not configured' });
    expect(['loading', 'ready']).toContain(stats.health.imageCheck);
    const { rows } = await server.db.pool.query(
      "SELECT count(*) FILTER (WHERE status = 'visible')::int AS visible, count(*)::int AS all FROM posts",
    );
    expect(rows[0].visible).toBeLessThan(rows[0].all);
    expect(stats.posts).toBe(rows[0].visible);
    expect(stats.daily).toHaveLength(7);
    expect(stats.daily[6].posts).toBe(rows[0].visible);
    expect(stats.recentDecisions.length).toBeGreaterThanOrEqual(1);
    expect(stats.reportsByReason.map((r: { reason: string }) => r.reason)).toContain('spam');
  });
});
