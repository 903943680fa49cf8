import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUrl } from '../../src/images/image-store';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { postgresAnswers, TEST_REDIS_URL } from '../../test-support/services';
import { makePlayer, tap } from '../game/builders';
import { connectGame, nextBoard, sendTaps } from '../game/socket-client';
import { makeAccount, makeName } from '../lolgram/builders';
import { startS3Server, type TestS3Server } from '../images/s3-server';
import { makeVisiblePost } from '../lolgram/post-checks';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const BUCKET = 'tapgram-nodes';
// Behind a trusted proxy (the load balancer), so that each test speaks from its own address.
const PROXIED = { TRUST_PROXY: '1' };

let clients = 0;
const newClient = () => `198.51.100.${(clients += 1)}`;

/**
 * Two nodes as ops deploy them: each its own process and its own data directory (nothing shared
 * on disk), one Postgres, one Redis and one S3 bucket between them.
 */
describe.runIf((await redisAvailable()) && (await postgresAnswers()))(
  'two backend nodes on one Postgres, one Redis and one S3 bucket',
  () => {
    let s3: TestS3Server;
    let a: TestServer;
    let b: ServerProcess;
    beforeAll(async () => {
      s3 = await startS3Server();
      await s3.createBucket(BUCKET);
      a = await startTestServer({
        mode: 'redis',
        env: { ...s3.env(BUCKET), ...PROXIED, SESSION_SECRET: SECRET },
      });
      b = await spawnServer({
        ...s3.env(BUCKET),
        ...PROXIED,
        DATABASE_URL: a.databaseUrl!,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: a.redisPrefix,
        SESSION_SECRET: SECRET,
        MODERATION_IMAGE_CHECK: 'off',
      });
    });
    afterAll(async () => {
      if (b) expect(await b.stop()).toBe(0);
      await a?.stop();
      await s3?.stop();
    });

    it('lets a player created on one node tap on the other', async () => {
      const player = await makePlayer(a.url, 'FR');
      const tapped = await tap(b.url, player);
      expect(tapped.status).toBe(200);
      const onB = await connectGame(b.url, player.cookie);
      try {
        expect(await sendTaps(onB, player.session.id, 4)).toMatchObject({ ok: true });
      } finally {
        onB.disconnect();
      }
      for (const node of [a.url, b.url]) {
        const user = await request(node).get(`/api/users/${player.user.id}`);
        expect(user.body.totalPoints).toBe(5);
      }
    });

    it('serves a post uploaded through one node, and both its images, from the other', async () => {
      const author = await makeAccount(a.url);
      const post = await makeVisiblePost(author);
      const fromB = await request(b.url).get(`/api/lolgram/posts/${post.id}`);
      expect(fromB.status).toBe(200);
      expect(fromB.body).toMatchObject({
        id: post.id,
        imageUrl: post.imageUrl,
        thumbnailUrl: post.thumbnailUrl,
      });
      for (const url of [post.imageUrl, post.thumbnailUrl]) {
        const image = await request(b.url).get(url).buffer(true);
        expect(image.status).toBe(200);
        expect(image.headers['content-type']).toBe('image/jpeg');
        const stored = await s3.object(BUCKET, url.slice(imageUrl('').length));
        expect(stored).not.toBeNull();
        expect(Buffer.compare(image.body as Buffer, stored!)).toBe(0);
      }
    });

    it('keeps a LOLGram account signed in through one node signed in on the other', async () => {
      const signedUp = await request(a.url)
        .post('/api/lolgram/users/create')
        .send({ username: makeName('both'), password: 'correct horse battery' });
      expect(signedUp.status).toBe(201);
      const cookie = String(signedUp.headers['set-cookie']).split(';')[0];
      const me = await request(b.url).get('/api/lolgram/users/me').set('Cookie', cookie);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(signedUp.body.id);
    });

    it('holds a login limit reached through one node on the other', async () => {
      const { user, password } = await makeAccount(b.url);
      const client = newClient();
      const login = (node: string, from: string, guess: string) =>
        request(node)
          .post('/api/lolgram/users/login')
          .set('X-Forwarded-For', from)
          .send({ username: user.username, password: guess });
      for (let i = 0; i < ACCOUNT_LIMITS.loginPerAccount.limit; i += 1) {
        expect((await login(a.url, client, 'wrong guess!')).status).toBe(401);
      }
      const refused = await login(b.url, client, password);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/Too many failed sign-in attempts/);
      expect((await login(b.url, newClient(), password)).status).toBe(200);
    });

    it('pushes the boards changed by a tap on one node to the sockets of the other', async () => {
      const watcherOnA = await connectGame(a.url);
      const player = await makePlayer(b.url, 'JP');
      const tapperOnB = await connectGame(b.url, player.cookie);
      try {
        const pushed = nextBoard(watcherOnA, 'users', (users) =>
          users.some((u) => u.id === player.user.id && u.totalPoints === 7),
        );
        expect(await sendTaps(tapperOnB, player.session.id, 7)).toMatchObject({ ok: true });
        await expect(pushed).resolves.toBeDefined();
      } finally {
        watcherOnA.disconnect();
        tapperOnB.disconnect();
      }
    });
  },
);
