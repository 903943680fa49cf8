import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { postgresAnswers } from '../../../test-support/services';
import { makeAccount, makeName, type Account } from '../builders';
import { makeAdmin } from './builders';
import { makeVisiblePost } from '../post-checks';

const LIMIT = 3;
const realPostgres = await postgresAnswers();

describe('reports', () => {
  let server: TestServer;
  let admin: Account;
  let author: Account;
  const adminName = makeName('boss');
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        ADMIN_USERNAMES: adminName,
        MODERATION_REPORTS_PER_HOUR: String(LIMIT),
        MODERATION_IMAGE_CHECK: 'off',
      },
    });
    admin = await makeAdmin(server, adminName);
    author = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const report = (who: Account, postId: string, body: object) =>
    who.agent.post(`/api/lolgram/posts/${postId}/report`).send(body);
  const itemFor = async (postId: string) =>
    (
      (await admin.agent.get('/api/lolgram/admin/moderation/queue')).body as {
        contentId: string;
        reason: string;
        reportCount: number;
      }[]
    ).find((item) => item.contentId === postId);

  it('takes a reason from the list, once per user per post, into one queue item', async () => {
    const post = await makeVisiblePost(author, { caption: 'totally fine' });
    const [first, second] = [await makeAccount(server.url), await makeAccount(server.url)];
    const anonymous = await request(server.url)
      .post(`/api/lolgram/posts/${post.id}/report`)
      .send({ reason: 'spam' });
    expect(anonymous.status).toBe(401);
    expect((await report(first, post.id, { reason: 'spam' })).status).toBe(201);
    expect((await report(first, post.id, { reason: 'spam' })).status).toBe(409);
    const details = 'It links to a scam in every comment.';
    expect((await report(second, post.id, { reason: 'other', details })).status).toBe(201);
    const item = await itemFor(post.id);
    expect(item).toMatchObject({ reportCount: 2, reason: 'Reported: spam; Reported: other' });
    const { rows } = await server.db.pool.query(
      "SELECT reason, details FROM content_reports WHERE content_type = 'post' AND content_id = $1 ORDER BY reason",
      [post.id],
    );
    expect(rows).toEqual([
      { reason: 'other', details },
      { reason: 'spam', details: null },
    ]);
  });

  it('refuses free-text reasons, long details, self-reports and posts that are not public', async () => {
    const post = await makeVisiblePost(author, { caption: 'mine' });
    const reporter = await makeAccount(server.url);
    for (const body of [{}, { reason: '' }, { reason: 'I just do not like it' }, { reason: '%' }]) {
      expect((await report(reporter, post.id, body)).status).toBe(400);
    }
    const long = await report(reporter, post.id, { reason: 'other', details: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    const self = await report(author, post.id, { reason: 'spam' });
    expect(self.status).toBe(400);
    expect(self.body.error).toMatch(/own post/);
    expect((await report(reporter, crypto.randomUUID(), { reason: 'spam' })).status).toBe(404);
    expect((await report(reporter, 'not-a-post', { reason: 'spam' })).status).toBe(404);
    expect(await itemFor(post.id)).toBeUndefined();
  });

  it(`holds a reporter to ${LIMIT} reports an hour, even when they are sent at once`, async () => {
    const posts = [];
    for (let i = 0; i < 2 * LIMIT; i += 1) {
      posts.push(await makeVisiblePost(author, { caption: `target ${i}` }));
    }
    const busy = await makeAccount(server.url);
    const answers = await Promise.all(
      posts.map((post) => report(busy, post.id, { reason: 'spam' })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(LIMIT).fill(429)]);
    const { rows } = await server.db.pool.query(
      "SELECT count(*)::int AS n FROM content_reports WHERE content_type = 'post' AND reporter_id = $1",
      [busy.user.id],
    );
    expect(rows[0].n).toBe(LIMIT);
    const other = await makeAccount(server.url);
    expect((await report(other, posts[0].id, { reason: 'nudity' })).status).toBe(201);
  });

  /**
   * Files a report that has read its content and waits (behind the reporter's lock, held here) while
   * the content's owner deletes it; answers both statuses once the report may go on.
   */
  async function reportWhileDeleted(
    reporter: Account,
    reportPath: string,
    owner: Account,
    deletePath: string,
  ) {
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    const waiting = async (...events: string[]) => {
      const { rows } = await holder.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND wait_event = ANY($1::text[])`,
        [events],
      );
      return rows[0].n as number;
    };
    try {
      await holder.query('BEGIN');
      // The lock the report takes on its reporter, after it has found its content.
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('post-report:' || $1))", [
        reporter.user.id,
      ]);
      const filed = reporter.agent
        .post(reportPath)
        .send({ reason: 'spam' })
        .then((r) => r);
      await expect.poll(() => waiting('advisory')).toBe(1);
      let deletedAnswer: number | null = null;
      const deleted = owner.agent.delete(deletePath).then((r) => (deletedAnswer = r.status));
      // The delete either ends, or waits for the report (which then holds what it reported).
      await expect
        .poll(async () => deletedAnswer !== null || (await waiting('transactionid', 'tuple')) > 0)
        .toBe(true);
      await holder.query('COMMIT');
      return { report: (await filed).status, deleted: await deleted };
    } finally {
      await holder.end();
    }
  }

  // Two connections at once: the embedded database has one.
  it.runIf(realPostgres)(
    'answers a report of a post or comment deleted meanwhile without a 5xx, and loses neither',
    async () => {
      const reporter = await makeAccount(server.url);
      const post = await makeVisiblePost(author, { caption: 'gone soon' });
      const onPost = await reportWhileDeleted(
        reporter,
        `/api/lolgram/posts/${post.id}/report`,
        author,
        `/api/lolgram/posts/${post.id}`,
      );
      expect(onPost).toEqual({ report: 201, deleted: 204 });

      const other = await makeVisiblePost(author, { caption: 'stays' });
      const comment = await author.agent
        .post(`/api/lolgram/posts/${other.id}/comments`)
        .send({ text: 'gone soon' });
      expect(comment.status).toBe(201);
      // Reported once its check has made it public.
      await expect
        .poll(
          async () =>
            (
              await server.db.pool.query('SELECT status FROM post_comments WHERE id = $1', [
                comment.body.id,
              ])
            ).rows[0]?.status,
        )
        .toBe('visible');
      const onComment = await reportWhileDeleted(
        reporter,
        `/api/lolgram/comments/${comment.body.id}/report`,
        author,
        `/api/lolgram/comments/${comment.body.id}`,
      );
      expect(onComment).toEqual({ report: 201, deleted: 204 });
      const { rows } = await server.db.pool.query(
        `SELECT (SELECT count(*) FROM posts WHERE id = $1)::int AS posts,
                (SELECT count(*) FROM post_comments WHERE id = $2)::int AS comments`,
        [post.id, comment.body.id],
      );
      expect(rows[0]).toEqual({ posts: 0, comments: 0 });
    },
  );

  it('keeps the reports of every type in one table, which lose them with their content', async () => {
    const post = await makeVisiblePost(author, { caption: 'reported and deleted' });
    const reporter = await makeAccount(server.url);
    const comment = await author.agent
      .post(`/api/lolgram/posts/${post.id}/comments`)
      .send({ text: 'a comment to report' });
    expect(comment.status).toBe(201);
    const commentId = (comment.body as { id: string }).id;
    // The comment is public once its check ends.
    await expect
      .poll(
        async () =>
          (
            await reporter.agent.post(`/api/lolgram/comments/${commentId}/report`).send({
              reason: 'spam',
            })
          ).status,
      )
      .toBe(201);
    expect((await report(reporter, post.id, { reason: 'other' })).status).toBe(201);
    const count = async () =>
      (
        await server.db.pool.query<{ type: string; n: number }>(
          `SELECT content_type AS type, count(*)::int AS n FROM content_reports
            WHERE content_id = ANY($1::uuid[]) GROUP BY content_type ORDER BY content_type`,
          [[post.id, commentId]],
        )
      ).rows;
    expect(await count()).toEqual([
      { type: 'comment', n: 1 },
      { type: 'post', n: 1 },
    ]);
    // Deleting the post deletes its comments, and each one's reports with it.
    expect((await author.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(204);
    expect(await count()).toEqual([]);
  });
});
