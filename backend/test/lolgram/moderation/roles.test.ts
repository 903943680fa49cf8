import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/server';
import { createScratchDatabase } from '../../../test-support/services';
import { makeAccount, makeName } from '../builders';
import { makeAdmin } from './builders';

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

  describe('listed names', () => {
    const listed = makeName('boss');
    const other = makeName('chief');
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        env: { ADMIN_USERNAMES: `${listed}, ${other.toUpperCase()}` },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    const signUp = (username: string) =>
      request(server.url)
        .post('/api/lolgram/users/create')
        .send({ username, password: 'correct horse battery' });
    const holders = async (username: string) =>
      (
        await server.db.pool.query(
          'SELECT username, role FROM lolgram_users WHERE lower(username) = lower($1)',
          [username],
        )
      ).rows;

    it('are reserved for the admin CLI while nobody holds them: sign-up is refused, in any case', async () => {
      for (const username of [other, other.toUpperCase(), listed.toUpperCase()]) {
        const res = await signUp(username);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          error: `This username is reserved for an admin: create it with "npm run admin -- create ${username}"`,
        });
        expect(await holders(username)).toEqual([]);
      }
    });

    it('stay with the admin who holds one: no rename away, so no stranger can squat it', async () => {
      const admin = await makeAdmin(server, listed);
      expect((await admin.agent.get(QUEUE)).status).toBe(200);
      const rename = await admin.agent
        .put(`/api/lolgram/users/${admin.user.id}`)
        .send({ username: `${listed}_old`.slice(0, 20), bio: '' });
      expect(rename.status).toBe(409);
      expect(rename.body.error).toMatch(/listed in ADMIN_USERNAMES/);
      // Changing only the case, or the bio, is not giving the name up.
      const recased = await admin.agent
        .put(`/api/lolgram/users/${admin.user.id}`)
        .send({ username: listed.toUpperCase(), bio: 'in charge' });
      expect(recased.status).toBe(200);

      const squat = await signUp(listed.toLowerCase());
      expect(squat.status).toBe(409);
      expect(await holders(listed)).toEqual([{ username: listed.toUpperCase(), role: 'admin' }]);
    });
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
