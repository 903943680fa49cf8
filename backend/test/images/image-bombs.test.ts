import { errorBodySchema, lolgramUserSchema, postSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makePng, makePost, type Account } from '../lolgram/builders';

const TOO_LONG = 'Image is too large: each side must be at most 8,000 pixels';
const TOO_DEEP = 'Image is too large to process: at most 40 million pixels of 8 bits per channel';

describe('image bombs refused by their header, before any pixel is decoded', () => {
  let server: TestServer;
  /** 40,000 x 1,000 RGBA: 40 million pixels, within the area cap, about 150 kB. */
  let strip: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    strip = await makePng(40_000, 1_000);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const postCount = async (account: Account) =>
    (
      await server.db.pool.query('SELECT count(*)::int AS n FROM posts WHERE user_id = $1', [
        account.user.id,
      ])
    ).rows[0].n;
  const setAvatar = (account: Account, image: Buffer) =>
    account.agent
      .put(`/api/lolgram/users/${account.user.id}/avatar`)
      .attach('avatar', image, { filename: 'me.png', contentType: 'image/png' });
  const refused = (res: request.Response, status: number, error: string) => {
    expect(res.status).toBe(status);
    expect(expectAnswer(errorBodySchema, res.body)).toEqual({ error });
  };

  it('refuses a 40,000 x 1,000 strip within the pixel cap as a post and as an avatar (413), storing nothing', async () => {
    expect(strip.length).toBeLessThan(200 * 1024);
    const alice = await makeAccount(server.url);
    refused(await makePost(alice, strip), 413, TOO_LONG);
    refused(await setAvatar(alice, strip), 413, TOO_LONG);
    // Stood on its side, the same.
    refused(await makePost(alice, await makePng(1_000, 40_000)), 413, TOO_LONG);
    expect(await postCount(alice)).toBe(0);
    const profile = await request(server.url).get(`/api/lolgram/users/${alice.user.id}`);
    expect(expectAnswer(lolgramUserSchema, profile.body).avatar).toBeNull();
  });

  it('refuses by the header alone: a strip whose pixel data is cut short is refused for its size, not as unreadable', async () => {
    // Decoding these pixels would fail; a refusal for the size shows none was decoded.
    const headerOnly = strip.subarray(0, 2048);
    const alice = await makeAccount(server.url);
    refused(await makePost(alice, headerOnly), 413, TOO_LONG);
    refused(await setAvatar(alice, headerOnly), 413, TOO_LONG);
  });

  it('refuses an image whose decoded pixels would pass the byte bound: 16-bit RGBA of 20.5 million pixels', async () => {
    const alice = await makeAccount(server.url);
    const deep = await makePng(5_000, 4_100, { sixteenBit: true });
    refused(await makePost(alice, deep), 413, TOO_DEEP);
    expect(await postCount(alice)).toBe(0);
  });

  it('accepts a side of 8,000 px: an 8,000 x 500 strip makes every copy at its size', async () => {
    const alice = await makeAccount(server.url);
    const res = await makePost(alice, await makePng(8_000, 500));
    expect(res.status).toBe(201);
    const post = expectAnswer(postSchema, res.body);
    const widths = (srcset: string | undefined) =>
      srcset?.split(', ').map((entry) => Number.parseInt(entry.split(' ')[1], 10));
    expect(widths(post.imageSrcset)).toEqual([320, 640, 768, 1080]);
    // Square tiles cut from the middle, no larger than the shorter edge.
    expect(widths(post.thumbnailSrcset)).toEqual([320, 500]);
  });
});
