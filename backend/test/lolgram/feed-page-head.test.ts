import { FEED_IMAGE_SIZES, type Post } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg } from './builders';
import { makeVisiblePost } from './post-checks';

/** The attributes of each `<link>` of a page's head that preloads an image. */
async function imagePreloads(server: TestServer, path: string, host?: string) {
  const get = request(server.url).get(path);
  const res = await (host ? get.set('Host', host) : get);
  expect(res.status).toBe(200);
  const head = res.text.slice(0, res.text.indexOf('</head>'));
  return [...head.matchAll(/<link ([^>]*)>/g)]
    .map(([, attributes]) =>
      Object.fromEntries([...attributes.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])),
    )
    .filter((link) => link.rel === 'preload' && link.as === 'image')
    .map((link) => ({
      href: link.href,
      srcset: link.imagesrcset,
      sizes: link.imagesizes,
      priority: link.fetchpriority,
    }));
}

describe("LOLGram's home page asks for its feed's first photo with its HTML", () => {
  let server: TestServer;
  beforeAll(async () => {
    // No PUBLIC_ORIGIN: the preload names the photo by its path, whatever the site's address.
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('names no photo while the feed is empty, then the first post of the feed, as its card asks', async () => {
    expect(await imagePreloads(server, '/lolgram')).toEqual([]);

    const author = await makeAccount(server.url);
    await makeVisiblePost(
      author,
      { caption: 'older' },
      await makeJpeg({ width: 1600, height: 1200 }),
    );
    const newest = await makeVisiblePost(
      author,
      { caption: 'newest' },
      await makeJpeg({ width: 1600, height: 1200 }),
    );
    const feed = (await request(server.url).get('/api/lolgram/posts/feed').expect(200))
      .body as Post[];
    const first = feed[0];
    expect(first.id).toBe(newest.id);
    expect(first.imageSrcset).toBeDefined();

    // A new post empties the kept first page on every node (an event): once it has, the page
    // names the newest post's photo.
    await expect
      .poll(() => imagePreloads(server, '/lolgram', 'tapgram.example'))
      .toEqual([
        {
          href: first.imageUrl,
          srcset: first.imageSrcset,
          sizes: FEED_IMAGE_SIZES,
          priority: 'high',
        },
      ]);
    // Only the feed's page: the game's (which preloads a flag of its own) does not ask for it.
    const play = (await imagePreloads(server, '/play')).map((link) => link.href);
    expect(play).not.toContain(first.imageUrl);
  });
});
