import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsersRepository } from '../../src/accounts';
import { PostsRepository } from '../../src/lolgram/posts/posts-repository';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount } from './builders';
import { makeVisiblePost } from './post-checks';

describe('recording views', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { MODERATION_IMAGE_CHECK: 'off' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('records the others when one of the posts is deleted while their views are written', async () => {
    const author = await makeAccount(server.url);
    const [gone, kept] = [await makeVisiblePost(author), await makeVisiblePost(author)];
    // Only recordViews is used, which reads no user.
    const repo = new PostsRepository(server.db.pool, {} as UsersRepository);

    // A deletion under way when the views are written: they read the post as there, and their
    // insert waits for the deletion to end.
    const deleting = await server.db.pool.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM posts WHERE id = $1', [gone.id]);
      const recording = repo.recordViews([gone.id, kept.id], 'test:deleted-meanwhile');
      await expect
        .poll(async () => {
          const { rows } = await server.db.pool.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a USING (pid)
              WHERE NOT l.granted AND a.query LIKE 'INSERT INTO post_views%'`,
          );
          return rows[0].waiting;
        })
        .toBeGreaterThan(0);
      await deleting.query('COMMIT');
      await recording;
    } finally {
      deleting.release();
    }
    const { rows } = await server.db.pool.query<{ post_id: string }>(
      "SELECT post_id FROM post_views WHERE viewer_key = 'test:deleted-meanwhile'",
    );
    expect(rows.map((row) => row.post_id)).toEqual([kept.id]);
  });
});
