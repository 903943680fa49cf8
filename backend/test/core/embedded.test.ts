import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStartTime } from '../../src/core/data-dir-lock';
import { openDatabase } from '../../src/core/db';
import { createLogger } from '../../src/core/logger';
import { makePlayer, tap } from '../game/builders';
import { startTestServer, type TestServer } from '../../test-support/server';
import { migratedEmbeddedDataDir } from '../../test-support/services';
import { makeAccount, makeJpeg, makePost } from '../lolgram/builders';

/** `npm start` with nothing configured: the embedded Postgres behind the same pg code. */
describe('the embedded database', () => {
  let dataDir: string;
  let server: TestServer;

  beforeAll(async () => {
    // Its first start (PGlite's initdb, then the migrations) is private-data.test.ts's.
    dataDir = await migratedEmbeddedDataDir();
    server = await startTestServer({ embedded: true, dataDir });
  });

  afterAll(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers many requests at once without mixing up their statements', async () => {
    const [alice, bob] = await Promise.all([makeAccount(server.url), makeAccount(server.url)]);
    const posted = await makePost(alice, await makeJpeg());
    expect(posted.status).toBe(201);

    const player = await makePlayer(server.url);
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () => request(server.url).get('/api/lolgram/posts/feed')),
      ...Array.from({ length: 15 }, () => tap(server.url, player)),
      bob.agent
        .post(`/api/lolgram/users/${alice.user.id}/follow`)
        .send({ followerId: bob.user.id }),
      alice.agent.post(`/api/lolgram/posts/${posted.body.id}/lol`),
      bob.agent.post(`/api/lolgram/posts/${posted.body.id}/lol`),
      request(server.url).get(`/api/lolgram/users/username/${alice.user.username}`),
      request(server.url).get('/api/leaderboard/users'),
    ]);
    expect(answers.filter((a) => a.status >= 300).map((a) => `${a.status} ${a.text}`)).toEqual([]);

    const user = await request(server.url).get(`/api/users/${player.user.id}`);
    expect(user.body).toMatchObject({ totalTaps: 15, totalPoints: 15 });
    const profile = await request(server.url).get(`/api/lolgram/users/${alice.user.id}`);
    expect(profile.body).toMatchObject({ followerCount: 1 });
    const lols = await alice.agent.post(`/api/lolgram/posts/${posted.body.id}/lol`);
    expect(lols.body).toEqual({ lolCount: 2, isLiked: true });
  });

  it('refuses a second process on the same data directory, naming the one that holds it', async () => {
    await expect(
      openDatabase({ databaseUrl: undefined, dataDir }, createLogger('silent')),
    ).rejects.toThrow(`in use by process ${process.pid}`);
  });

  it('takes over a lock whose pid now belongs to another program', async () => {
    // A crashed app left its lock behind, and the system gave its pid to an unrelated program.
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    const otherDir = await migratedEmbeddedDataDir();
    try {
      const pid = other.pid!;
      const lockPath = path.join(otherDir, 'pgdata', 'tapgram.lock');
      await fs.mkdir(path.dirname(lockPath), { recursive: true });
      const logger = createLogger('silent');
      // The earlier lock format (a bare pid) and the current one naming a different start.
      for (const stale of [String(pid), JSON.stringify({ pid, started: 'an earlier start' })]) {
        expect(processStartTime(pid)).not.toBeNull();
        await fs.writeFile(lockPath, stale);
        const db = await openDatabase({ databaseUrl: undefined, dataDir: otherDir }, logger);
        const { rows } = await db.pool.query<{ one: number }>('SELECT 1 AS one');
        expect(rows).toEqual([{ one: 1 }]);
        await db.close();
      }
    } finally {
      other.kill();
      await fs.rm(otherDir, { recursive: true, force: true });
    }
  });

  it('keeps its data across a restart', async () => {
    const account = await makeAccount(server.url);
    await server.stop();
    server = await startTestServer({ embedded: true, dataDir });
    const found = await request(server.url).get(
      `/api/lolgram/users/username/${account.user.username}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(account.user.id);
  });
});
