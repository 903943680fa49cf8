import { avatarAnswerSchema, lolgramUserSchema, postSchema, type Post } from '@tapgram/shared';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg, makePost, type Account } from '../lolgram/builders';
import { checked, makeVisiblePost } from '../lolgram/post-checks';

interface Copy {
  url: string;
  width: number;
}

/** The copies a srcset offers, as it names them. */
function copiesOf(srcset: string | undefined): Copy[] {
  expect(srcset, 'a srcset').toBeDefined();
  return srcset!.split(', ').map((entry) => {
    const [url, width] = entry.split(' ');
    expect(width).toMatch(/^\d+w$/);
    return { url, width: Number.parseInt(width, 10) };
  });
}

describe('image copies made at upload, offered as srcset', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { MODERATION_IMAGE_CHECK: 'off' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Fetches a copy as `agent` and answers its size, checking it is WebP. */
  async function fetchCopy(copy: Copy, agent = request(server.url)) {
    const res = await agent.get(copy.url).buffer(true);
    expect(res.status, copy.url).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.body).metadata();
    expect(meta.format).toBe('webp');
    return { width: meta.width!, height: meta.height!, cacheControl: res.headers['cache-control'] };
  }

  async function visiblePost(author: Account, image: Buffer): Promise<Post> {
    const { id } = await makeVisiblePost(author, {}, image);
    const feed = await request(server.url).get('/api/lolgram/posts/feed');
    const post = expectAnswer(postSchema.array(), feed.body).find((p) => p.id === id);
    expect(post).toBeDefined();
    return post!;
  }

  it('makes a post 320, 640, 768 and 1080 px wide, and its square tile 320 and 640 px', async () => {
    const author = await makeAccount(server.url);
    const post = await visiblePost(author, await makeJpeg({ width: 2000, height: 1500 }));

    const image = copiesOf(post.imageSrcset);
    expect(image.map((copy) => copy.width)).toEqual([320, 640, 768, 1080]);
    for (const copy of image) {
      // In proportion (4:3), as wide as its srcset says.
      const size = await fetchCopy(copy);
      expect(size.width).toBe(copy.width);
      expect(size.height).toBe(Math.round((copy.width * 3) / 4));
      expect(size.cacheControl).toBe('public, max-age=31536000, s-maxage=600, immutable');
    }
    const tile = copiesOf(post.thumbnailSrcset);
    expect(tile.map((copy) => copy.width)).toEqual([320, 640]);
    for (const copy of tile) {
      expect(await fetchCopy(copy)).toMatchObject({ width: copy.width, height: copy.width });
    }
    // The spec's fields stay as they were: the full JPEG and its thumbnail.
    const full = await request(server.url).get(post.imageUrl).buffer(true);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(full.body).metadata()).width).toBe(1080);
  });

  it('never makes a copy larger than the upload', async () => {
    const author = await makeAccount(server.url);
    const post = await visiblePost(author, await makeJpeg({ width: 500, height: 400 }));
    expect(copiesOf(post.imageSrcset).map((copy) => copy.width)).toEqual([320, 500]);
    expect(copiesOf(post.thumbnailSrcset).map((copy) => copy.width)).toEqual([320, 400]);
    for (const copy of copiesOf(post.thumbnailSrcset)) {
      expect(await fetchCopy(copy)).toMatchObject({ width: copy.width, height: copy.width });
    }
  });

  it('makes square avatars 96, 192 and 384 px, shown on the user and on their posts', async () => {
    const alice = await makeAccount(server.url);
    const first = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}/avatar`)
      .attach('avatar', await makeJpeg({ width: 900, height: 600 }), 'me.jpg');
    expect(first.status).toBe(200);
    const { user } = expectAnswer(avatarAnswerSchema, first.body);
    const avatar = copiesOf(user.avatarSrcset);
    expect(avatar.map((copy) => copy.width)).toEqual([96, 192, 384]);
    for (const copy of avatar) {
      expect(await fetchCopy(copy)).toMatchObject({ width: copy.width, height: copy.width });
    }
    const read = await request(server.url).get(`/api/lolgram/users/${alice.user.id}`);
    expect(expectAnswer(lolgramUserSchema, read.body).avatarSrcset).toBe(user.avatarSrcset);
    const post = await visiblePost(alice, await makeJpeg());
    expect(post.userAvatarSrcset).toBe(user.avatarSrcset);

    // A new avatar replaces the old one's copies too.
    const second = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}/avatar`)
      .attach('avatar', await makeJpeg({ width: 300, height: 300 }), 'me.jpg');
    const replaced = expectAnswer(avatarAnswerSchema, second.body).user;
    expect(copiesOf(replaced.avatarSrcset).map((copy) => copy.width)).toEqual([96, 192, 300]);
    for (const copy of avatar) {
      expect((await request(server.url).get(copy.url)).status).toBe(404);
    }
  });

  it('serves the copies of a post not public only to its author, like its image', async () => {
    const author = await makeAccount(server.url);
    const res = await makePost(author, await makeJpeg());
    expect(res.status).toBe(201);
    const created = expectAnswer(postSchema, res.body);
    // Checking or already visible: the check runs beside the answer and may finish first.
    expect(await checked(author, created.id)).toBe('visible');
    // Held for a moderator from here on.
    await server.db.pool.query(`UPDATE posts SET status = 'held' WHERE id = $1`, [created.id]);
    for (const copy of [...copiesOf(created.imageSrcset), ...copiesOf(created.thumbnailSrcset)]) {
      expect((await request(server.url).get(copy.url)).status).toBe(404);
      const own = await fetchCopy(copy, author.agent);
      expect(own).toMatchObject({ width: copy.width, cacheControl: 'private, no-store' });
    }
  });

  it('serves no copy that was not made, nor one of another post', async () => {
    const author = await makeAccount(server.url);
    const post = await visiblePost(author, await makeJpeg({ width: 500, height: 400 }));
    const [copy] = copiesOf(post.imageSrcset);
    const notMade = copy.url.replace('-320w.webp', '-1080w.webp');
    expect((await request(server.url).get(notMade)).status).toBe(404);
    const other = await visiblePost(author, await makeJpeg());
    const foreign = copy.url.replace(`/posts/${post.id}/`, `/posts/${other.id}/`);
    expect((await request(server.url).get(foreign)).status).toBe(404);
  });

  it('answers no srcset for an image uploaded before copies were made', async () => {
    const author = await makeAccount(server.url);
    const post = await visiblePost(author, await makeJpeg());
    await server.db.pool.query(
      `UPDATE posts SET image_widths = '{}', thumbnail_widths = '{}' WHERE id = $1`,
      [post.id],
    );
    const res = await request(server.url).get(`/api/lolgram/posts/user/${author.user.id}`);
    const old = expectAnswer(postSchema.array(), res.body).find((p) => p.id === post.id);
    expect(old).toBeDefined();
    expect(old!.imageSrcset).toBeUndefined();
    expect(old!.thumbnailSrcset).toBeUndefined();
    expect((await request(server.url).get(copiesOf(post.imageSrcset)[0].url)).status).toBe(404);
  });
});
