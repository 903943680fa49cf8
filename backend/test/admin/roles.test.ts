import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { createScratchDatabase } from '../helpers/services';
import { makeAccount, makeName } from '../lolgram/builders';

const QUEUE = '/api/lolgram/admin/moderation/queue';

describe('who is an admin', () => {
  it('is decided by the role, not the current username: renaming to a listed name grants nothing', async () => {
    const listed = makeName('boss');
    const server = await startTestServer({
      env: { ADMIN_USERNAMES: listed, MODERATION_IMAGE_CHECK: 'off' },
    });
    try {
      const mallory = await makeAccount(server.url);
      // Whether or not the rename itself is allowed, it must not make an admin.
      await mallory.agent
        .put(`/api/lolgram/users/${mallory.user.id}`)
        .send({ username: listed, bio: 'totally the boss' });
      expect((await mallory.agent.get('/api/lolgram/users/me')).body.isAdmin).toBe(false);
      expect((await mallory.agent.get(QUEUE)).status).toBe(403);
      // An account that carries a listed name without the role (renamed before renames to listed
      // names were refused, or revoked with the admin CLI) is not an admin either.
      await server.db.pool.query('UPDATE lolgram_users SET username = $2 WHERE id = $1', [
        mallory.user.id,
        listed.toUpperCase(),
      ]);
      expect((await mallory.agent.get('/api/lolgram/users/me')).body).toMatchObject({
        username: listed.toUpperCase(),
        isAdmin: false,
      });
      expect((await mallory.agent.get(QUEUE)).status).toBe(403);
    } finally {
      await server.stop();
    }
  });

  describe('ADMIN_USERNAMES at start-up', () => {
    let database: { url: string; drop: () => Promise<void> };
    let dataDir: string;
    beforeAll(async () => {
      database = await createScratchDatabase();
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-roles-'));
    });
    afterAll(async () => {
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    const start = (env: Record<string, string>): Promise<TestServer> =>
      startTestServer({
        databaseUrl: database.url,
        env: { DATA_DIR: dataDir, MODERATION_IMAGE_CHECK: 'off', ...env },
      });

    it('makes a listed existing account an admin in the database after a restart', async () => {
      const name = makeName('carol');
      const before = await start({});
      const carol = await makeAccount(before.url, name);
      expect((await carol.agent.get(QUEUE)).status).toBe(403);
      await before.stop();

      const after = await start({ ADMIN_USERNAMES: `someone_else, ${name.toUpperCase()}` });
      try {
        const { rows } = await after.db.pool.query('SELECT role FROM lolgram_users WHERE id = $1', [
          carol.user.id,
        ]);
        expect(rows[0].role).toBe('admin');
        const agent = request.agent(after.url);
        await agent
          .post('/api/lolgram/users/login')
          .send({ username: name, password: carol.password });
        expect((await agent.get('/api/lolgram/users/me')).body.isAdmin).toBe(true);
        expect((await agent.get(QUEUE)).status).toBe(200);
      } finally {
        await after.stop();
      }
    });
  });
});
