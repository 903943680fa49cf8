import { errorBodySchema } from '@tapgram/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg, makePost, type Account } from './builders';

const UPLOADS = 3;
const HOUR_SECONDS = 60 * 60;

describe.each(storageModes)('image uploads per user (%s)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode, env: { UPLOADS_PER_HOUR: String(UPLOADS) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const setAvatar = async (account: Account) =>
    account.agent
      .put(`/api/lolgram/users/${account.user.id}/avatar`)
      .attach('avatar', await makeJpeg(), 'me.jpg');
  const postCount = async (account: Account) =>
    (
      await server.db.pool.query('SELECT count(*)::int AS n FROM posts WHERE user_id = $1', [
        account.user.id,
      ])
    ).rows[0].n;

  it('counts posts and avatars together: past UPLOADS_PER_HOUR both are refused with 429 and Retry-After, storing nothing; another user uploads', async () => {
    const alice = await makeAccount(server.url);
    const jpeg = await makeJpeg();
    expect((await makePost(alice, jpeg)).status).toBe(201);
    expect((await setAvatar(alice)).status).toBe(200);
    expect((await makePost(alice, jpeg)).status).toBe(201);

    for (const res of [await makePost(alice, jpeg), await setAvatar(alice)]) {
      expect(res.status).toBe(429);
      expect(expectAnswer(errorBodySchema, res.body)).toEqual({
        error: 'Too many image uploads. Try again later.',
      });
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(HOUR_SECONDS);
    }
    expect(await postCount(alice)).toBe(2);

    const bob = await makeAccount(server.url);
    expect((await makePost(bob, jpeg)).status).toBe(201);
  });
});
