import { errorBodySchema, postSchema, saveStateSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectAnswer } from '../helpers/answers';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, type Account } from './builders';
import { makeAdmin } from './moderation/builders';
import { makeVisiblePost } from './post-checks';

const posts = z.array(postSchema);

describe.each(storageModes)('LOLGram saved posts (%s storage)', (mode) => {
  let server: TestServer;
  let author: Account;
  beforeAll(async () => {
    server = await startTestServer({ mode });
    author = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const save = (who: Account, postId: string, on = true) =>
    on
      ? who.agent.post(`/api/lolgram/posts/${postId}/save`)
      : who.agent.delete(`/api/lolgram/posts/${postId}/save`);
  const saved = async (who: Account, query = '') => {
    const res = await who.agent.get(`/api/lolgram/users/${who.user.id}/saved${query}`);
    expect(res.status).toBe(200);
    return expectAnswer(posts, res.body);
  };
  const isSavedFor = async (who: Account | null, postId: string) => {
    const res = await (who ? who.agent : request(server.url)).get(`/api/lolgram/posts/${postId}`);
    return expectAnswer(postSchema, res.body).isSaved;
  };

  it('saves and unsaves idempotently, and only the saver sees the post as saved', async () => {
    const post = await makeVisiblePost(author);
    const reader = await makeAccount(server.url);
    for (let i = 0; i < 2; i += 1) {
      expect(expectAnswer(saveStateSchema, (await save(reader, post.id)).body)).toEqual({
        isSaved: true,
      });
    }
    expect(await isSavedFor(reader, post.id)).toBe(true);
    expect(await isSavedFor(author, post.id)).toBe(false);
    expect(await isSavedFor(null, post.id)).toBe(false);
    // In the feed too: the shared first page carries each reader's own saves.
    const feedOf = async (who: Account | null) =>
      expectAnswer(
        posts,
        (await (who ? who.agent : request(server.url)).get('/api/lolgram/posts/feed')).body,
      ).find((p) => p.id === post.id);
    expect((await feedOf(reader))?.isSaved).toBe(true);
    expect((await feedOf(null))?.isSaved).toBe(false);
    expect((await saved(reader)).map((p) => p.id)).toEqual([post.id]);

    for (let i = 0; i < 2; i += 1) {
      expect((await save(reader, post.id, false)).body).toEqual({ isSaved: false });
    }
    expect(await isSavedFor(reader, post.id)).toBe(false);
    expect(await saved(reader)).toEqual([]);
  });

  it('lists the Saved grid latest saved first, a page at a time, public posts only', async () => {
    const [a, b, c] = [
      await makeVisiblePost(author, { caption: 'a' }),
      await makeVisiblePost(author, { caption: 'b' }),
      await makeVisiblePost(author, { caption: 'c' }),
    ];
    const reader = await makeAccount(server.url);
    for (const post of [b, a, c]) expect((await save(reader, post.id)).status).toBe(200);
    expect((await saved(reader)).map((p) => p.id)).toEqual([c.id, a.id, b.id]);

    const first = await saved(reader, '?limit=2');
    expect(first.map((p) => p.id)).toEqual([c.id, a.id]);
    expect(first.every((p) => p.isSaved)).toBe(true);
    const next = await saved(reader, `?limit=2&before=${encodeURIComponent(first[1].cursor)}`);
    expect(next.map((p) => p.id)).toEqual([b.id]);

    // A post its author deleted leaves the grid.
    expect((await author.agent.delete(`/api/lolgram/posts/${a.id}`)).status).toBe(204);
    expect((await saved(reader)).map((p) => p.id)).toEqual([c.id, b.id]);

    for (const query of ['?limit=0', '?limit=51', '?before=nonsense']) {
      const res = await reader.agent.get(`/api/lolgram/users/${reader.user.id}/saved${query}`);
      expect(res.status).toBe(400);
      expectAnswer(errorBodySchema, res.body);
    }
  });

  it('keeps a Saved grid to its owner: 401 signed out, 404 for anyone else, admins too', async () => {
    const post = await makeVisiblePost(author);
    const owner = await makeAccount(server.url);
    const other = await makeAccount(server.url);
    const admin = await makeAdmin(server);
    expect((await save(owner, post.id)).status).toBe(200);
    const path = `/api/lolgram/users/${owner.user.id}/saved`;

    const anonymous = await request(server.url).get(path);
    expect(anonymous.status).toBe(401);
    for (const who of [other, admin]) {
      const res = await who.agent.get(path);
      expect(res.status).toBe(404);
      expect(expectAnswer(errorBodySchema, res.body).error).toBe('Not found');
    }
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      expect((await owner.agent.get(`/api/lolgram/users/${id}/saved`)).status).toBe(404);
    }
    // Saving acts on one's own grid only: another user's saves leave the owner's as it was.
    expect((await save(other, post.id, false)).status).toBe(200);
    expect((await save(admin, post.id, false)).status).toBe(200);
    expect((await saved(owner)).map((p) => p.id)).toEqual([post.id]);
  });

  it('saves public posts only, for signed-in users', async () => {
    const reader = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    const anonymous = await request(server.url).post(`/api/lolgram/posts/${post.id}/save`);
    expect(anonymous.status).toBe(401);
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      for (const on of [true, false]) {
        const res = await save(reader, id, on);
        expect(res.status).toBe(404);
        expectAnswer(errorBodySchema, res.body);
      }
    }
    expect((await author.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(204);
    expect((await save(reader, post.id)).status).toBe(404);
  });
});
