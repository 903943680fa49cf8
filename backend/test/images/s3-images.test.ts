import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUrl } from '../../src/images/image-store';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg, makeName, makePost, type Account } from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { checked, makeVisiblePost } from '../lolgram/post-checks';
import { startS3Server, type TestS3Server } from './s3-server';

const BUCKET = 'tapgram-images';
// The caption check alone scores this above the hold threshold set below.
const PROFANE = 'this meme is fucking hilarious';

const keyOf = (url: string) => url.slice(imageUrl('').length);

describe('LOLGram with IMAGE_STORE=s3', () => {
  let s3: TestS3Server;
  let server: TestServer;
  let dataDir: string;
  let admin: Account;
  let stranger: Account;
  const adminName = makeName('boss');
  beforeAll(async () => {
    s3 = await startS3Server();
    await s3.createBucket(BUCKET);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-s3-app-'));
    server = await startTestServer({
      dataDir,
      env: { ...s3.env(BUCKET), ADMIN_USERNAMES: adminName, MODERATION_HOLD_THRESHOLD: '0.55' },
    });
    admin = await makeAdmin(server, adminName);
    stranger = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  const fetchImage = (url: string, who: TestAgent = request.agent(server.url)) =>
    who.get(url).buffer(true);
  const heldPost = async (author: Account) => {
    const res = await makePost(author, await makeJpeg(), { caption: PROFANE });
    expect(res.status).toBe(201);
    expect(await checked(author, res.body.id)).toBe('held');
    return res.body as { id: string; imageUrl: string; thumbnailUrl: string };
  };

  it('stores both sizes of a post in the bucket, nothing on local disk, and serves them from the bucket', async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author);
    for (const url of [post.imageUrl, post.thumbnailUrl]) {
      const res = await fetchImage(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toMatch(/^public/);
      const stored = await s3.object(BUCKET, keyOf(url));
      expect(stored).not.toBeNull();
      expect(Buffer.compare(res.body as Buffer, stored!)).toBe(0);
    }
    const localFiles = await fs.readdir(dataDir, { recursive: true });
    expect(localFiles.filter((file) => file.endsWith('.jpg'))).toEqual([]);

    // Taken out of the bucket behind the app's back, the image is gone from the app too.
    await s3.client.send(
      new DeleteObjectCommand({ Bucket: BUCKET, Key: keyOf(post.thumbnailUrl) }),
    );
    expect((await fetchImage(post.thumbnailUrl)).status).toBe(404);
    expect((await fetchImage(post.imageUrl)).status).toBe(200);
  });

  it('keeps avatars in the bucket and deletes the one a new avatar replaces', async () => {
    const account = await makeAccount(server.url);
    const upload = async () => {
      const res = await account.agent
        .put(`/api/lolgram/users/${account.user.id}/avatar`)
        .attach('avatar', await makeJpeg({ width: 500, height: 400 }), 'me.jpg');
      expect(res.status).toBe(200);
      return String((res.body as { user: { avatar: string } }).user.avatar);
    };
    const first = await upload();
    expect(await s3.object(BUCKET, keyOf(first))).not.toBeNull();
    const second = await upload();
    expect(second).not.toBe(first);
    expect(await s3.object(BUCKET, keyOf(first))).toBeNull();
    expect((await fetchImage(first)).status).toBe(404);
    const res = await fetchImage(second);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, (await s3.object(BUCKET, keyOf(second)))!)).toBe(0);
  });

  it("keeps a held post's images private: its author and admins get them, nobody else", async () => {
    const author = await makeAccount(server.url);
    const post = await heldPost(author);
    for (const url of [post.imageUrl, post.thumbnailUrl]) {
      const stored = await s3.object(BUCKET, keyOf(url));
      expect(stored).not.toBeNull();
      for (const who of [author.agent, admin.agent]) {
        const res = await fetchImage(url, who);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(Buffer.compare(res.body as Buffer, stored!)).toBe(0);
      }
      expect((await fetchImage(url, stranger.agent)).status).toBe(404);
      expect((await fetchImage(url)).status).toBe(404);
    }
  });

  it("serves a rejected post's images to nobody, and keeps their bytes in the private bucket", async () => {
    const author = await makeAccount(server.url);
    const post = await heldPost(author);
    const queue = await admin.agent.get('/api/lolgram/admin/moderation/queue');
    const item = (queue.body as { id: string; contentId: string }[]).find(
      (entry) => entry.contentId === post.id,
    );
    expect(item).toBeDefined();
    const decided = await admin.agent
      .post(`/api/lolgram/admin/moderation/${item!.id}`)
      .send({ decision: 'rejected' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ postStatus: 'rejected' });
    for (const url of [post.imageUrl, post.thumbnailUrl]) {
      for (const who of [author.agent, admin.agent, stranger.agent, request.agent(server.url)]) {
        expect((await fetchImage(url, who)).status).toBe(404);
      }
      // Rejecting a post deletes no image: the bytes stay in the bucket, which nobody reaches but
      // the backend, and the backend serves them to nobody.
      expect(await s3.object(BUCKET, keyOf(url))).not.toBeNull();
    }
  });

  it('refuses to start, naming the bucket, when the bucket does not exist', async () => {
    const otherDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-s3-app-'));
    try {
      await expect(
        startTestServer({
          databaseUrl: server.databaseUrl,
          dataDir: otherDataDir,
          env: s3.env('no-such-bucket'),
        }),
      ).rejects.toThrow(
        `The S3 bucket "no-such-bucket" at ${s3.endpoint} does not exist: create it, or correct S3_BUCKET`,
      );
    } finally {
      await fs.rm(otherDataDir, { recursive: true, force: true });
    }
  });
});
