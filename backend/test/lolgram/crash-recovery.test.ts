import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Notification } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import {
  createScratchDatabase,
  migratedEmbeddedDataDir,
  postgresAnswers,
} from '../../test-support/services';
import { makeAccount, type Account } from './builders';
import { makeVisiblePost } from './post-checks';

const SECRET = 'crash-recovery-secret-crash-recovery-0123456';
const modes = [...((await postgresAnswers()) ? (['postgres'] as const) : []), 'embedded'] as const;

/** Waits for the process to print `text` (its own words, not a guess at its timing). */
async function printed(server: ServerProcess, text: string): Promise<void> {
  await expect.poll(() => server.output(), { timeout: 30_000 }).toContain(text);
}

/**
 * What LOLGram answered 200 for, and whose handlers' work (a notification) was under way when the
 * process was killed (kill -9: nothing finished), is done by the next process on the same data.
 */
describe.each(modes)('LOLGram writes across kill -9 (%s database)', (mode) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    const dataDir =
      mode === 'embedded'
        ? await migratedEmbeddedDataDir()
        : await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-crash-'));
    let databaseUrl = '';
    let drop = async () => {};
    if (mode === 'postgres') ({ url: databaseUrl, drop } = await createScratchDatabase());
    env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      REDIS_URL: '',
      SESSION_SECRET: SECRET,
      MODERATION_IMAGE_CHECK: 'off',
      EVENTS_LEASE_SECONDS: '2',
    };
    cleanup = async () => {
      await drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  });
  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });
  afterAll(async () => {
    await cleanup?.();
  });

  /** A server process; `stallAt`: it freezes at the first statement matching it. */
  async function start(stallAt?: RegExp): Promise<ServerProcess> {
    server = await spawnServer(stallAt ? { ...env, TAPGRAM_TEST_STALL_SQL: stallAt.source } : env, {
      preload: ['./stall-queries.ts'],
    });
    return server;
  }
  const as = (who: Account, url: string) => ({
    get: (to: string) => request(url).get(to).set('Cookie', who.cookie),
    post: (to: string) => request(url).post(to).set('Cookie', who.cookie),
  });

  it('tells the author of a LOL answered just before the crash, once', async () => {
    const first = await start(/INSERT INTO notifications/);
    const author = await makeAccount(first.url);
    const fan = await makeAccount(first.url);
    const post = await makeVisiblePost(author);
    expect((await as(fan, first.url).post(`/api/lolgram/posts/${post.id}/lol`)).status).toBe(200);
    // The notification is being written when the process dies.
    await printed(first, 'stalled query: INSERT INTO notifications');
    await first.kill();

    const next = await start();
    await expect
      .poll(
        async () =>
          (
            (await as(author, next.url).get('/api/lolgram/notifications')).body as Notification[]
          ).map((n) => [n.kind, n.postId, n.actors.map((a) => a.id), n.actorCount]),
        { timeout: 30_000 },
      )
      .toEqual([['lol', post.id, [fan.user.id], 1]]);
    // Delivered once: a later action is told beside it, and the LOL's stays one.
    const follower = await makeAccount(next.url);
    await as(follower, next.url)
      .post(`/api/lolgram/users/${author.user.id}/follow`)
      .send({ followerId: follower.user.id })
      .expect(200);
    await expect
      .poll(async () => (await as(author, next.url).get('/api/lolgram/notifications')).body)
      .toHaveLength(2);
    expect(
      (await as(author, next.url).get('/api/lolgram/notifications/unread-count')).body,
    ).toEqual({ unread: 2 });
  }, 400_000);
});
