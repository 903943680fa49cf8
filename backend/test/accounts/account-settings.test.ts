import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  accountMessages,
  accountSettingsSchema,
  messages,
  type SignInInput,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { startTestServer, type TestServer } from '../../test-support/server';
import { expectAnswer } from '../helpers/answers';
import {
  makeAccount,
  makeJpeg,
  makeName,
  sessionCookieOf,
  TestWallet,
  type Account,
} from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makeVisiblePost } from '../lolgram/post-checks';

const PASSWORD = 'correct horse battery';

/** Signs in again as `account` from another client: another device's session cookie. */
async function anotherDevice(url: string, username: string, password = PASSWORD) {
  const res = await request(url).post('/api/lolgram/users/login').send({ username, password });
  expect(res.status).toBe(200);
  return sessionCookieOf(res);
}

const meWith = (url: string, cookie: string) =>
  request(url).get('/api/lolgram/users/me').set('Cookie', cookie);

/** The wallet's signature of a request the server issued for it, as a wallet signs one. */
async function proofOf(url: string, wallet: TestWallet) {
  const input = (
    await request(url).post('/api/lolgram/auth/wallet/nonce').send({ address: wallet.address })
  ).body as SignInInput;
  return wallet.sign(input);
}

/** A wallet-only account, signed in with its wallet. */
async function makeWalletAccount(url: string) {
  const wallet = new TestWallet();
  const agent = request.agent(url);
  const res = await agent.post('/api/lolgram/users/create').send({
    username: `wallet_${wallet.address.slice(0, 8)}`,
    walletAddress: wallet.address,
    proof: await proofOf(url, wallet),
  });
  expect(res.status).toBe(201);
  return { agent, wallet, user: res.body as { id: string; username: string } };
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

describe('LOLGram account settings', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-settings-'));
    server = await startTestServer({ mode: 'redis', dataDir, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const settingsOf = async (account: { agent: Account['agent'] }) =>
    expectAnswer(
      accountSettingsSchema,
      (await account.agent.get('/api/lolgram/users/me/settings')).body,
    );

  describe('changing the password', () => {
    it('refuses a wrong current password and a new one outside the rules, with their messages', async () => {
      const alice = await makeAccount(server.url);
      const wrong = await alice.agent
        .put('/api/lolgram/users/me/password')
        .send({ currentPassword: 'not it at all', newPassword: 'a brand new secret' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ error: accountMessages.wrongPassword });
      const short = await alice.agent
        .put('/api/lolgram/users/me/password')
        .send({ currentPassword: PASSWORD, newPassword: 'abc' });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ error: messages.passwordTooShort });
      const missing = await alice.agent
        .put('/api/lolgram/users/me/password')
        .send({ newPassword: 'a brand new secret' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: accountMessages.currentPasswordRequired });
      const strangers = await request(server.url)
        .put('/api/lolgram/users/me/password')
        .send({ currentPassword: PASSWORD, newPassword: 'a brand new secret' });
      expect(strangers.status).toBe(401);
    });

    it('signs the other sessions out and keeps this one; the old password no longer works', async () => {
      const alice = await makeAccount(server.url);
      const phone = await anotherDevice(server.url, alice.user.username);
      expect((await meWith(server.url, phone)).status).toBe(200);
      const res = await alice.agent
        .put('/api/lolgram/users/me/password')
        .send({ currentPassword: PASSWORD, newPassword: 'a brand new secret' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ended: 1 });
      expect((await meWith(server.url, phone)).status).toBe(401);
      expect((await alice.agent.get('/api/lolgram/users/me')).status).toBe(200);
      const old = await request(server.url)
        .post('/api/lolgram/users/login')
        .send({ username: alice.user.username, password: PASSWORD });
      expect(old.status).toBe(401);
      await anotherDevice(server.url, alice.user.username, 'a brand new secret');
    });

    it('counts wrong current passwords against the sign-in limit (429 after it)', async () => {
      const alice = await makeAccount(server.url);
      const attempt = () =>
        alice.agent
          .put('/api/lolgram/users/me/password')
          .set('X-Forwarded-For', '203.0.113.77')
          .send({ currentPassword: 'guess guess guess', newPassword: 'a brand new secret' });
      for (let i = 0; i < ACCOUNT_LIMITS.loginPerAccount.limit; i++) {
        expect((await attempt()).status).toBe(403);
      }
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(/Too many failed sign-in attempts/);
    });
  });

  describe('signing out of every other device', () => {
    it('ends the other sessions on every node, not this one', async () => {
      const second = await startTestServer({
        mode: 'redis',
        databaseUrl: server.databaseUrl,
        redisPrefix: server.redisPrefix,
      });
      try {
        const alice = await makeAccount(server.url);
        const [tablet, laptop] = [
          await anotherDevice(second.url, alice.user.username),
          await anotherDevice(server.url, alice.user.username),
        ];
        const bob = await makeAccount(server.url);
        expect((await settingsOf(alice)).otherSessions).toBe(2);
        const res = await alice.agent.post('/api/lolgram/users/me/sessions/end-others');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ended: 2 });
        expect((await meWith(second.url, tablet)).status).toBe(401);
        expect((await meWith(server.url, laptop)).status).toBe(401);
        expect((await alice.agent.get('/api/lolgram/users/me')).status).toBe(200);
        expect((await settingsOf(alice)).otherSessions).toBe(0);
        // Someone else's sessions are theirs: Bob stays signed in.
        expect((await bob.agent.get('/api/lolgram/users/me')).status).toBe(200);
      } finally {
        await second.stop();
      }
    });
  });

  describe('linking and unlinking a wallet', () => {
    it('links a signed wallet to a password account, which then signs in with it, and unlinks it', async () => {
      const alice = await makeAccount(server.url);
      const wallet = new TestWallet();
      const linked = await alice.agent
        .post('/api/lolgram/users/me/wallet')
        .send({ proof: await proofOf(server.url, wallet) });
      expect(linked.status).toBe(200);
      expect(expectAnswer(accountSettingsSchema, linked.body)).toMatchObject({
        hasPassword: true,
        walletAddress: wallet.address,
      });
      const walletLogin = await request(server.url)
        .post('/api/lolgram/auth/wallet/login')
        .send({ proof: await proofOf(server.url, wallet) });
      expect(walletLogin.status).toBe(200);
      expect(walletLogin.body.id).toBe(alice.user.id);

      const again = await alice.agent
        .post('/api/lolgram/users/me/wallet')
        .send({ proof: await proofOf(server.url, new TestWallet()) });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: accountMessages.walletAlreadyLinked });

      const unlinked = await alice.agent.delete('/api/lolgram/users/me/wallet');
      expect(unlinked.status).toBe(200);
      expect(unlinked.body.walletAddress).toBeNull();
      const gone = await request(server.url)
        .post('/api/lolgram/auth/wallet/login')
        .send({ proof: await proofOf(server.url, wallet) });
      expect(gone.status).toBe(404);
      expect((await alice.agent.delete('/api/lolgram/users/me/wallet')).body).toEqual({
        error: accountMessages.walletNotLinked,
      });
    });

    it('refuses a wallet bound to another account (409) and a proof that does not verify', async () => {
      const owner = await makeWalletAccount(server.url);
      const alice = await makeAccount(server.url);
      const taken = await alice.agent
        .post('/api/lolgram/users/me/wallet')
        .send({ proof: await proofOf(server.url, owner.wallet) });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ error: accountMessages.walletTakenElsewhere });
      const wallet = new TestWallet();
      const proof = await proofOf(server.url, wallet);
      const forged = await alice.agent
        .post('/api/lolgram/users/me/wallet')
        .send({ proof: { ...proof, output: { ...proof.output, signature: 'AAAA' } } });
      expect(forged.status).toBe(403);
      expect((await settingsOf(alice)).walletAddress).toBeNull();
      const bad = await alice.agent.post('/api/lolgram/users/me/wallet').send({ proof: 'x' });
      expect(bad.status).toBe(400);
    });

    it('never unlinks the last way in; a wallet account sets a password with its wallet, then may unlink', async () => {
      const walletOnly = await makeWalletAccount(server.url);
      const last = await walletOnly.agent.delete('/api/lolgram/users/me/wallet');
      expect(last.status).toBe(409);
      expect(last.body).toEqual({ error: accountMessages.lastSignInMethod });

      const unproven = await walletOnly.agent
        .put('/api/lolgram/users/me/password')
        .send({ newPassword: 'my first password' });
      expect(unproven.status).toBe(400);
      const otherWallet = await walletOnly.agent.put('/api/lolgram/users/me/password').send({
        newPassword: 'my first password',
        proof: await proofOf(server.url, new TestWallet()),
      });
      expect(otherWallet.status).toBe(403);
      expect(otherWallet.body).toEqual({ error: accountMessages.wrongWallet });
      const set = await walletOnly.agent.put('/api/lolgram/users/me/password').send({
        newPassword: 'my first password',
        proof: await proofOf(server.url, walletOnly.wallet),
      });
      expect(set.status).toBe(200);
      expect((await settingsOf(walletOnly)).hasPassword).toBe(true);

      // Its wallet_ name is its wallet's: a name of its own first.
      const named = await walletOnly.agent.delete('/api/lolgram/users/me/wallet');
      expect(named.status).toBe(409);
      expect(named.body).toEqual({ error: accountMessages.walletNameKept });
      const newName = makeName('own');
      const renamed = await walletOnly.agent
        .put(`/api/lolgram/users/${walletOnly.user.id}`)
        .send({ username: newName, bio: '' });
      expect(renamed.status).toBe(200);
      expect((await walletOnly.agent.delete('/api/lolgram/users/me/wallet')).status).toBe(200);
      await anotherDevice(server.url, newName, 'my first password');
    });
  });

  describe('deleting the account', () => {
    it('refuses without the right confirmation: wrong password, someone else’s wallet, an admin', async () => {
      const alice = await makeAccount(server.url);
      const bob = await makeAccount(server.url);
      const wrong = await alice.agent
        .post('/api/lolgram/users/me/delete')
        .send({ password: bob.password + 'x' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ error: accountMessages.wrongPassword });
      const none = await alice.agent.post('/api/lolgram/users/me/delete').send({});
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: accountMessages.confirmWith });
      const walletOnly = await makeWalletAccount(server.url);
      const foreign = await walletOnly.agent
        .post('/api/lolgram/users/me/delete')
        .send({ proof: await proofOf(server.url, new TestWallet()) });
      expect(foreign.status).toBe(403);
      const admin = await makeAdmin(server);
      const kept = await admin.agent
        .post('/api/lolgram/users/me/delete')
        .send({ password: PASSWORD });
      expect(kept.status).toBe(409);
      expect(kept.body).toEqual({ error: accountMessages.adminKept });
      for (const who of [alice, walletOnly, admin]) {
        expect((await who.agent.get('/api/lolgram/users/me')).status).toBe(200);
      }
    });

    it('deletes a wallet-only account confirmed by its wallet', async () => {
      const walletOnly = await makeWalletAccount(server.url);
      const res = await walletOnly.agent
        .post('/api/lolgram/users/me/delete')
        .send({ proof: await proofOf(server.url, walletOnly.wallet) });
      expect(res.status).toBe(204);
      expect((await walletOnly.agent.get('/api/lolgram/users/me')).status).toBe(401);
      // A wallet_ name is only ever its wallet's: the wallet may start again at once.
      expect((await makeWalletAccountFor(walletOnly.wallet)).status).toBe(201);
    });

    const makeWalletAccountFor = async (wallet: TestWallet) =>
      request(server.url)
        .post('/api/lolgram/users/create')
        .send({
          username: `wallet_${wallet.address.slice(0, 8)}`,
          walletAddress: wallet.address,
          proof: await proofOf(server.url, wallet),
        });

    it('removes everything the user made and every trace in what others see, keeps the audit, and holds the name', async () => {
      const doomed = await makeAccount(server.url);
      const friend = await makeAccount(server.url);
      const admin = await makeAdmin(server);
      const phone = await anotherDevice(server.url, doomed.user.username);
      const pool = server.db.pool;

      const avatar = await doomed.agent
        .put(`/api/lolgram/users/${doomed.user.id}/avatar`)
        .attach('avatar', await makeJpeg({ width: 300, height: 300 }), 'me.jpg');
      expect(avatar.status).toBe(200);
      const own = await makeVisiblePost(doomed, { caption: 'mine, soon gone' });
      const rejected = await makeVisiblePost(doomed, { caption: 'against the rules' });
      const friendsPost = await makeVisiblePost(friend, { caption: 'a friend posts' });

      // The audit: a moderator removed one of its posts.
      expect(
        (
          await friend.agent
            .post(`/api/lolgram/posts/${rejected.id}/report`)
            .send({ reason: 'spam' })
        ).status,
      ).toBe(201);
      const { rows: items } = await pool.query<{ id: string }>(
        `SELECT id FROM moderation_queue WHERE content_id = $1 AND status = 'pending'`,
        [rejected.id],
      );
      expect(
        (
          await admin.agent
            .post(`/api/lolgram/admin/moderation/${items[0].id}`)
            .send({ decision: 'rejected' })
        ).status,
      ).toBe(200);

      // Its traces in what others see: a LOL, a comment with a reply by the friend, a save, follows.
      expect((await doomed.agent.post(`/api/lolgram/posts/${friendsPost.id}/lol`)).status).toBe(
        200,
      );
      const comment = await doomed.agent
        .post(`/api/lolgram/posts/${friendsPost.id}/comments`)
        .send({ text: 'nice one' });
      expect(comment.status).toBe(201);
      const friendsOwnComment = await friend.agent
        .post(`/api/lolgram/posts/${friendsPost.id}/comments`)
        .send({ text: 'thanks all' });
      expect(friendsOwnComment.status).toBe(201);
      await expect
        .poll(
          async () =>
            (await request(server.url).get(`/api/lolgram/posts/${friendsPost.id}`)).body
              .commentCount,
        )
        .toBe(2);
      const reply = await friend.agent
        .post(`/api/lolgram/posts/${friendsPost.id}/comments`)
        .send({ text: 'thank you', parentId: comment.body.id });
      expect(reply.status).toBe(201);
      await expect
        .poll(
          async () =>
            (await request(server.url).get(`/api/lolgram/posts/${friendsPost.id}`)).body
              .commentCount,
        )
        .toBe(3);
      expect((await doomed.agent.post(`/api/lolgram/posts/${friendsPost.id}/save`)).status).toBe(
        200,
      );
      expect((await friend.agent.post(`/api/lolgram/posts/${own.id}/save`)).status).toBe(200);
      expect(
        (
          await doomed.agent
            .post(`/api/lolgram/users/${friend.user.id}/follow`)
            .send({ followerId: doomed.user.id })
        ).status,
      ).toBe(200);
      expect(
        (
          await friend.agent
            .post(`/api/lolgram/users/${doomed.user.id}/follow`)
            .send({ followerId: friend.user.id })
        ).status,
      ).toBe(200);
      await expect
        .poll(
          async () =>
            (await friend.agent.get('/api/lolgram/notifications/unread-count')).body.unread,
        )
        .toBeGreaterThanOrEqual(3);

      const imagesDir = path.join(dataDir, 'images');
      const ownFiles = [
        ...(await filesUnder(path.join(imagesDir, 'posts', own.id))),
        ...(await filesUnder(path.join(imagesDir, 'posts', rejected.id))),
        ...(await filesUnder(path.join(imagesDir, 'avatars', doomed.user.id))),
      ];
      expect(ownFiles.length).toBeGreaterThanOrEqual(6);
      const friendsFiles = await filesUnder(path.join(imagesDir, 'posts', friendsPost.id));

      const res = await doomed.agent
        .post('/api/lolgram/users/me/delete')
        .send({ password: doomed.password });
      expect(res.status).toBe(204);

      // Signed out everywhere.
      expect((await doomed.agent.get('/api/lolgram/users/me')).status).toBe(401);
      expect((await meWith(server.url, phone)).status).toBe(401);
      // Its rows are gone.
      for (const [table, column] of [
        ['posts', 'user_id'],
        ['post_comments', 'user_id'],
        ['post_lols', 'user_id'],
        ['post_saves', 'user_id'],
        ['follows', 'follower_id'],
        ['follows', 'following_id'],
        ['notifications', 'user_id'],
        ['notification_actors', 'actor_id'],
        ['auth_sessions', 'user_id'],
      ]) {
        const { rows } = await pool.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [
          doomed.user.id,
        ]);
        expect(rows, `${table}.${column}`).toEqual([]);
      }
      expect(
        (await pool.query('SELECT 1 FROM post_saves WHERE post_id = $1', [own.id])).rows,
      ).toEqual([]);
      expect((await request(server.url).get(`/api/lolgram/posts/${own.id}`)).status).toBe(404);
      // The friend's post counts what is left: no LOL, one comment (its own), the reply gone with
      // the comment it answered.
      const post = (await request(server.url).get(`/api/lolgram/posts/${friendsPost.id}`)).body;
      expect(post).toMatchObject({ lolCount: 0, commentCount: 1 });
      const thread = (
        await request(server.url).get(`/api/lolgram/posts/${friendsPost.id}/comments`)
      ).body;
      expect(thread.comments.map((c: { text: string }) => c.text)).toEqual(['thanks all']);
      const friendNow = (await request(server.url).get(`/api/lolgram/users/${friend.user.id}`))
        .body;
      expect(friendNow).toMatchObject({ followerCount: 0, followingCount: 0 });
      const notes = (await friend.agent.get('/api/lolgram/notifications')).body as {
        actors?: { id: string }[];
        kind: string;
      }[];
      expect(JSON.stringify(notes)).not.toContain(doomed.user.id);
      // Its LOL, comment and follow were all the friend was told of: nothing is left unread.
      expect((await friend.agent.get('/api/lolgram/notifications/unread-count')).body).toEqual({
        unread: 0,
      });
      // Its images are gone from the store; the friend's stay.
      for (const file of ownFiles) await expect(fs.stat(file)).rejects.toThrow();
      expect(await filesUnder(path.join(imagesDir, 'avatars', doomed.user.id))).toEqual([]);
      expect(await filesUnder(path.join(imagesDir, 'posts', friendsPost.id))).toEqual(friendsFiles);
      // The audit keeps that a moderator removed something, and not what.
      const audit = await admin.agent.get('/api/lolgram/admin/stats');
      expect(audit.status).toBe(200);
      const { rows: decisions } = await pool.query(
        `SELECT d.decision FROM moderation_decisions d JOIN moderation_queue q ON q.id = d.queue_id
          WHERE q.content_id = $1`,
        [rejected.id],
      );
      expect(decisions).toEqual([{ decision: 'rejected' }]);
      expect(JSON.stringify(audit.body)).not.toContain('against the rules');

      // The name is held: nobody may take it yet, by sign-up or rename.
      const taken = await request(server.url)
        .post('/api/lolgram/users/create')
        .send({ username: doomed.user.username.toUpperCase(), password: PASSWORD });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ error: accountMessages.usernameUnavailable });
      const rename = await friend.agent
        .put(`/api/lolgram/users/${friend.user.id}`)
        .send({ username: doomed.user.username, bio: '' });
      expect(rename.status).toBe(409);
      expect(rename.body).toEqual({ error: accountMessages.usernameUnavailable });
      const { rows: held } = await pool.query<{ days: number }>(
        `SELECT round(extract(epoch FROM released_at - now()) / 86400)::int AS days
           FROM held_usernames WHERE username = lower($1)`,
        [doomed.user.username],
      );
      expect(held).toEqual([{ days: 30 }]);
      // Once the hold ends, the name is free.
      await pool.query(
        `UPDATE held_usernames SET released_at = now() - interval '1 second' WHERE username = lower($1)`,
        [doomed.user.username],
      );
      expect(
        (
          await request(server.url)
            .post('/api/lolgram/users/create')
            .send({ username: doomed.user.username, password: PASSWORD })
        ).status,
      ).toBe(201);
    });

    it('deletes once: a second deletion and the requests racing it answer 4xx, never 5xx', async () => {
      const doomed = await makeAccount(server.url);
      const friend = await makeAccount(server.url);
      const post = await makeVisiblePost(friend);
      const image = await makeJpeg();
      const [first, second, ...racing] = await Promise.all([
        doomed.agent.post('/api/lolgram/users/me/delete').send({ password: PASSWORD }),
        request(server.url)
          .post('/api/lolgram/users/me/delete')
          .set('Cookie', doomed.cookie)
          .send({ password: PASSWORD }),
        request(server.url).post(`/api/lolgram/posts/${post.id}/lol`).set('Cookie', doomed.cookie),
        request(server.url)
          .post(`/api/lolgram/posts/${post.id}/comments`)
          .set('Cookie', doomed.cookie)
          .send({ text: 'racing' }),
        request(server.url)
          .post(`/api/lolgram/users/${friend.user.id}/follow`)
          .set('Cookie', doomed.cookie)
          .send({ followerId: doomed.user.id }),
        request(server.url).post(`/api/lolgram/posts/${post.id}/save`).set('Cookie', doomed.cookie),
        request(server.url)
          .post('/api/lolgram/posts')
          .set('Cookie', doomed.cookie)
          .field('caption', 'racing the deletion')
          .field('userId', doomed.user.id)
          .attach('image', image, { filename: 'post.jpg', contentType: 'image/jpeg' }),
      ]);
      const statuses = [first, second, ...racing].map((res) => res.status);
      expect(
        statuses.filter((status) => status >= 500),
        JSON.stringify(statuses),
      ).toEqual([]);
      expect([first.status, second.status].filter((status) => status === 204)).toHaveLength(1);
      expect([first.status, second.status].sort()).toEqual([204, expect.any(Number)]);
      // Afterwards nothing of it is left, whatever the races did, and the counts agree.
      const pool = server.db.pool;
      for (const table of ['posts', 'post_comments', 'post_lols', 'post_saves']) {
        const { rows } = await pool.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [
          doomed.user.id,
        ]);
        expect(rows, table).toEqual([]);
      }
      const after = (await request(server.url).get(`/api/lolgram/posts/${post.id}`)).body;
      expect(after).toMatchObject({ lolCount: 0, commentCount: 0 });
      expect(
        (await request(server.url).get(`/api/lolgram/users/${friend.user.id}`)).body,
      ).toMatchObject({
        followerCount: 0,
      });
      const again = await doomed.agent
        .post('/api/lolgram/users/me/delete')
        .send({ password: PASSWORD });
      expect(again.status).toBe(401);
    });
  });
});
