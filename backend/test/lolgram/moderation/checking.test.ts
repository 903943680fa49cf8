import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NsfwClassifier } from '../../../src/lolgram/moderation/nsfw-classifier';
import type { NsfwModel } from '../../../src/lolgram/moderation/nsfw-model';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { createScratchDatabase } from '../../../test-support/services';
import { makeAccount, makeJpeg, makeName, makePost, type Account } from '../builders';
import { makeAdmin } from './builders';
import { checked, makeVisiblePost, statusForAuthor } from '../post-checks';

/**
 * A stand-in for the image model (the real one is tested in scoring.test.ts): it answers the
 * explicitness the test sets, only once the test opens its gate, so that a post can be seen
 * while its check is still running. Each server gets it through the real classifier.
 */
const model = (() => {
  const state = { explicit: 0, gate: Promise.resolve(), open: () => undefined as void };
  return {
    state,
    load: vi.fn<() => Promise<NsfwModel>>(),
    close() {
      state.gate = new Promise<void>((resolve) => {
        state.open = resolve;
      });
    },
  };
})();
const imageClassifier = () => new NsfwClassifier(() => model.load());

const fakeModel: NsfwModel = {
  async classify() {
    await model.state.gate;
    return [
      { className: 'Porn', probability: model.state.explicit },
      { className: 'Neutral', probability: 1 - model.state.explicit },
    ];
  },
};

describe('the automatic check of new posts', () => {
  let server: TestServer;
  let admin: Account;
  let author: Account;
  let other: Account;
  const adminName = makeName('boss');
  beforeAll(async () => {
    model.load.mockResolvedValue(fakeModel);
    server = await startTestServer({
      env: { ADMIN_USERNAMES: adminName, MODERATION_IMAGE_CHECK: 'on' },
      imageClassifier: imageClassifier(),
    });
    admin = await makeAdmin(server, adminName);
    author = await makeAccount(server.url);
    other = await makeAccount(server.url);
  });
  afterEach(() => {
    model.state.open();
    model.state.explicit = 0;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const anonymous = () => request.agent(server.url);
  const feedIds = async () =>
    (await anonymous().get('/api/lolgram/posts/feed?limit=50')).body.map(
      (p: { id: string }) => p.id,
    );
  const listedFor = async (who: request.Agent) =>
    (await who.get(`/api/lolgram/posts/user/${author.user.id}`)).body.map(
      (p: { id: string }) => p.id,
    );
  const postCount = async () =>
    (await anonymous().get(`/api/lolgram/users/${author.user.id}`)).body.postCount;
  const queueItem = async (postId: string) =>
    (
      (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
        id: string;
        contentId: string;
        reason: string;
      }[]
    ).find((item) => item.contentId === postId);

  /** Whether an image answers, and how it may be cached. */
  const image = async (who: request.Agent, url: string) => {
    const res = await who.get(url);
    return res.status === 200 ? res.headers['cache-control'] : res.status;
  };

  it('keeps a post out of every public listing while it is checking, and shows it to its author', async () => {
    model.close();
    const res = await makePost(author, await makeJpeg(), { caption: 'fresh' });
    expect(res.status).toBe(201);
    const post = res.body;
    expect(post.moderation).toBe('checking');
    expect(await statusForAuthor(author, post.id)).toBe('checking');
    expect(await feedIds()).not.toContain(post.id);
    expect(await listedFor(anonymous())).not.toContain(post.id);
    expect(await listedFor(other.agent)).not.toContain(post.id);
    expect((await other.agent.post(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(404);
    const reported = await other.agent
      .post(`/api/lolgram/posts/${post.id}/report`)
      .send({ reason: 'spam' });
    expect(reported.status).toBe(404);
    expect(await postCount()).toBe(0);
    for (const url of [post.imageUrl, post.thumbnailUrl]) {
      expect(await image(anonymous(), url)).toBe(404);
      expect(await image(other.agent, url)).toBe(404);
      expect(await image(author.agent, url)).toBe('private, no-store');
      expect(await image(admin.agent, url)).toBe('private, no-store');
    }

    model.state.open();
    expect(await checked(author, post.id)).toBe('visible');
    expect(await feedIds()).toContain(post.id);
    expect(await listedFor(other.agent)).toContain(post.id);
    expect(await postCount()).toBe(1);
    expect(await image(anonymous(), post.imageUrl)).toBe(
      'public, max-age=31536000, s-maxage=600, immutable',
    );
    expect(await queueItem(post.id)).toBeUndefined();
  });

  it('holds an explicit image for a moderator: its author and admins alone see it, privately', async () => {
    model.state.explicit = 0.95;
    const post = (await makePost(author, await makeJpeg(), { caption: 'hmm' })).body;
    expect(await checked(author, post.id)).toBe('held');
    expect((await queueItem(post.id))?.reason).toMatch(/held: image looks explicit \(0\.95\)/);
    expect(await feedIds()).not.toContain(post.id);
    expect(await listedFor(other.agent)).not.toContain(post.id);
    expect(await image(anonymous(), post.imageUrl)).toBe(404);
    expect(await image(other.agent, post.thumbnailUrl)).toBe(404);
    expect(await image(author.agent, post.thumbnailUrl)).toBe('private, no-store');
    expect(await image(admin.agent, post.imageUrl)).toBe('private, no-store');
    const counted = await postCount();
    const stats = (await admin.agent.get('/api/lolgram/admin/stats')).body;
    const { rows } = await server.db.pool.query(
      "SELECT count(*)::int AS n FROM posts WHERE status = 'visible'",
    );
    expect(stats.posts).toBe(rows[0].n);
    expect(stats.health.imageCheck).toBe('ready');

    const item = (await queueItem(post.id))!;
    await admin.agent
      .post(`/api/lolgram/admin/moderation/${item.id}`)
      .send({ decision: 'approved' });
    expect(await feedIds()).toContain(post.id);
    expect(await postCount()).toBe(counted + 1);
  });

  it('does not queue or reveal a post whose check ends after it was rejected', async () => {
    model.close();
    model.state.explicit = 0.7;
    const post = (await makePost(author, await makeJpeg(), { caption: 'late' })).body;
    const counted = await postCount();
    // Rejected meanwhile (by a moderator on another node, while this node's check was running).
    await server.db.pool.query("UPDATE posts SET status = 'rejected' WHERE id = $1", [post.id]);
    model.state.open();
    await expect
      .poll(
        async () =>
          (await server.db.pool.query('SELECT ai_score FROM posts WHERE id = $1', [post.id]))
            .rows[0].ai_score,
      )
      .toBe('0.700');
    expect(await queueItem(post.id)).toBeUndefined();
    expect(await statusForAuthor(author, post.id)).toBe('not listed');
    expect(await postCount()).toBe(counted);
  });

  it('checks again, at start-up, the posts a stopped server left checking', async () => {
    const database = await createScratchDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-recheck-'));
    const env = {
      DATA_DIR: dataDir,
      MODERATION_HOLD_THRESHOLD: '0.9',
      MODERATION_IMAGE_CHECK: 'on',
    };
    const first = await startTestServer({
      databaseUrl: database.url,
      env,
      imageClassifier: imageClassifier(),
    });
    let second: TestServer | undefined;
    try {
      const writer = await makeAccount(first.url);
      const one = await makeVisiblePost(writer, { caption: 'one' });
      const two = await makeVisiblePost(writer, { caption: 'two' });
      // As if the server had died before these checks ended.
      await first.db.pool.query(
        "UPDATE posts SET status = 'checking', ai_score = NULL WHERE id = ANY($1::uuid[])",
        [[one.id, two.id]],
      );
      await first.db.pool.query('UPDATE lolgram_users SET post_count = 0 WHERE id = $1', [
        writer.user.id,
      ]);
      await first.stop();

      model.state.explicit = 0.95;
      const loads = model.load.mock.calls.length;
      second = await startTestServer({
        databaseUrl: database.url,
        env,
        imageClassifier: imageClassifier(),
      });
      // The model is loaded at start-up, not by the first post.
      expect(model.load.mock.calls.length).toBe(loads + 1);
      const status = (id: string) =>
        second!.db.pool
          .query('SELECT status FROM posts WHERE id = $1', [id])
          .then((r) => r.rows[0].status);
      await expect.poll(() => status(two.id), { timeout: 20_000 }).toBe('held');
      await expect.poll(() => status(one.id), { timeout: 20_000 }).toBe('held');
      const { rows } = await second.db.pool.query(
        "SELECT reason FROM moderation_queue WHERE content_id = $1 AND status = 'pending'",
        [two.id],
      );
      expect(rows[0].reason).toMatch(/image looks explicit/);
    } finally {
      await second?.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('when the image model fails to load', () => {
  let server: TestServer;
  let admin: Account;
  let author: Account;
  const adminName = makeName('boss');
  beforeAll(async () => {
    model.load.mockReset();
    model.load.mockRejectedValue(new Error('wasm backend unavailable'));
    server = await startTestServer({
      env: { ADMIN_USERNAMES: adminName, MODERATION_IMAGE_CHECK: 'on' },
      imageClassifier: imageClassifier(),
    });
    admin = await makeAdmin(server, adminName);
    author = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const health = async () =>
    (await admin.agent.get('/api/lolgram/admin/stats')).body.health.imageCheck;
  const reasonFor = async (postId: string) =>
    (
      (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
        contentId: string;
        reason: string;
      }[]
    ).find((item) => item.contentId === postId)?.reason;

  it('still checks the caption, sends the post to a person, reports it, and retries the model', async () => {
    await expect.poll(health).toBe('failed');
    const plain = (await makePost(author, await makeJpeg(), { caption: 'a dog' })).body;
    const rude = (await makePost(author, await makeJpeg(), { caption: 'what the fuck' })).body;
    expect(await checked(author, plain.id)).toBe('visible');
    expect(await checked(author, rude.id)).toBe('visible');
    expect(await reasonFor(plain.id)).toBe('Automatic check 0.00: image check unavailable');
    expect(await reasonFor(rude.id)).toMatch(/image check unavailable, caption has profanity/);
    const triedSoFar = model.load.mock.calls.length;
    expect(triedSoFar).toBeGreaterThanOrEqual(2);

    model.load.mockResolvedValue(fakeModel);
    const later = (await makePost(author, await makeJpeg(), { caption: 'a cat' })).body;
    expect(await checked(author, later.id)).toBe('visible');
    expect(await reasonFor(later.id)).toBeUndefined();
    expect(model.load.mock.calls.length).toBe(triedSoFar + 1);
    expect(await health()).toBe('ready');
  });
});
