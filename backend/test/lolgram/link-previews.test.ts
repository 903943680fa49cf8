import { Window } from 'happy-dom';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeJpeg, makePost } from './builders';
import { makeAdmin } from './moderation/builders';
import { checked, makeVisiblePost } from './post-checks';

// A profane caption is held for a moderator.
const HOLD_PROFANITY = { MODERATION_HOLD_THRESHOLD: '0.55' };
const ORIGIN = 'https://lolgram.example';

/** The page as a link unfurler reads it: its meta tags by name, and its head's elements. */
async function page(server: TestServer, path: string, host?: string) {
  const get = request(server.url).get(path);
  const res = await (host ? get.set('Host', host) : get);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  const window = new Window();
  const document = new window.DOMParser().parseFromString(res.text, 'text/html');
  const tags = new Map<string, string>();
  for (const meta of document.querySelectorAll('meta')) {
    const name = meta.getAttribute('property') ?? meta.getAttribute('name');
    if (name) tags.set(name, meta.getAttribute('content') ?? '');
  }
  const preview = [...tags.keys()].filter((name) => /^(og|twitter):/.test(name));
  return {
    text: res.text,
    tags,
    preview,
    scripts: document.querySelectorAll('script').length,
    metas: document.querySelectorAll('meta').length,
  };
}

describe('link previews of posts and profiles', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ...HOLD_PROFANITY, PUBLIC_ORIGIN: ORIGIN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("gives a visible post's page its caption and its 1080 px image with its size", async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(
      author,
      { caption: 'When the build passes on the first try' },
      await makeJpeg({ width: 1600, height: 1200 }),
    );
    const { tags } = await page(server, `/lolgram/p/${post.id}`);
    expect(tags.get('og:title')).toBe(`${author.user.username} on LOLGram`);
    expect(tags.get('og:description')).toBe('When the build passes on the first try');
    expect(tags.get('og:type')).toBe('article');
    expect(tags.get('og:url')).toBe(`${ORIGIN}/lolgram/p/${post.id}`);
    expect(tags.get('og:image')).toMatch(new RegExp(`^${ORIGIN}/api/lolgram/images/.+\\.jpg$`));
    expect([tags.get('og:image:width'), tags.get('og:image:height')]).toEqual(['1080', '810']);
    expect(tags.get('og:image:type')).toBe('image/jpeg');
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    expect(tags.get('twitter:image')).toBe(tags.get('og:image'));
    // The image it names is served to anyone.
    const image = await request(server.url).get(tags.get('og:image')!.slice(ORIGIN.length));
    expect(image.status).toBe(200);
  });

  it('gives a profile its bio and its avatar', async () => {
    const user = await makeAccount(server.url);
    await user.agent
      .put(`/api/lolgram/users/${user.user.id}/avatar`)
      .attach('avatar', await makeJpeg({ width: 300, height: 200 }), 'me.jpg')
      .expect(200);
    await user.agent
      .put(`/api/lolgram/users/${user.user.id}`)
      .send({ username: user.user.username, bio: 'Memes & more' })
      .expect(200);
    const { tags } = await page(server, `/lolgram/${user.user.username.toUpperCase()}`);
    expect(tags.get('og:title')).toBe(`${user.user.username} on LOLGram`);
    expect(tags.get('og:description')).toBe('Memes & more');
    expect(tags.get('og:type')).toBe('profile');
    expect(tags.get('twitter:card')).toBe('summary');
    expect(tags.get('og:image')).toMatch(new RegExp(`^${ORIGIN}/api/lolgram/images/avatars/`));
    expect([tags.get('og:image:width'), tags.get('og:image:height')]).toEqual(['200', '200']);
  });

  it("escapes an attacker's caption: nothing leaves the attribute", async () => {
    const author = await makeAccount(server.url);
    const caption = `"><script>alert(1)</script><meta property="og:title" content="x" />' $& $' \``;
    const post = await makeVisiblePost(author, { caption });
    const attacked = await page(server, `/lolgram/p/${post.id}`);
    expect(attacked.tags.get('og:description')).toBe(caption);
    expect(attacked.tags.get('twitter:description')).toBe(caption);
    expect(attacked.tags.get('og:title')).toBe(`${author.user.username} on LOLGram`);
    expect(attacked.text).not.toContain('<script>alert(1)');
    // The same elements as a page without the caption: nothing was added by it.
    const plain = await makeVisiblePost(author, { caption: 'plain' });
    const reference = await page(server, `/lolgram/p/${plain.id}`);
    expect([attacked.scripts, attacked.metas]).toEqual([reference.scripts, reference.metas]);
  });

  it('gives none for a held, rejected or deleted post, an unknown one, or nobody', async () => {
    const author = await makeAccount(server.url);
    const admin = await makeAdmin(server);
    const held = await makePost(author, await makeJpeg(), {
      caption: 'this meme is fucking hilarious',
    });
    expect(await checked(author, held.body.id)).toBe('held');
    const rejected = await makeVisiblePost(author);
    // Seen once while visible (kept for a minute): the decision empties what was kept.
    expect((await page(server, `/lolgram/p/${rejected.id}`)).preview).not.toEqual([]);
    const reporter = await makeAccount(server.url);
    await reporter.agent
      .post(`/api/lolgram/posts/${rejected.id}/report`)
      .send({ reason: 'spam' })
      .expect(201);
    const { body: queue } = await admin.agent.get('/api/lolgram/admin/moderation/queue');
    const item = (queue as { id: string; contentId: string }[]).find(
      (i) => i.contentId === rejected.id,
    )!;
    await admin.agent
      .post(`/api/lolgram/admin/moderation/${item.id}`)
      .send({ decision: 'rejected' })
      .expect(200);
    const deleted = await makeVisiblePost(author);
    expect((await page(server, `/lolgram/p/${deleted.id}`)).preview).not.toEqual([]);
    await author.agent.delete(`/api/lolgram/posts/${deleted.id}`).expect(204);
    await server.events.settled();

    for (const path of [
      `/lolgram/p/${held.body.id}`,
      `/lolgram/p/${rejected.id}`,
      `/lolgram/p/${deleted.id}`,
      `/lolgram/p/${crypto.randomUUID()}`,
      '/lolgram/nobody-has-this-name',
    ]) {
      const { preview, text } = await page(server, path);
      expect(preview, path).toEqual([]);
      expect(text).toContain('<div id="root"></div>');
    }
  });
});

describe('link previews without PUBLIC_ORIGIN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never names the site by the client's Host: only a loopback one gets tags", async () => {
    const author = await makeAccount(server.url);
    const post = await makeVisiblePost(author, { caption: 'Shared from a cache' });
    const path = `/lolgram/p/${post.id}`;
    for (const host of ['evil.example', 'evil.example:80', 'tapgram.example.evil.example']) {
      const spoofed = await page(server, path, host);
      expect(spoofed.preview, host).toEqual([]);
      expect(spoofed.text).not.toContain('evil.example');
    }
    // A developer's own machine (supertest's Host is the loopback address it dials).
    const local = await page(server, path);
    expect(local.tags.get('og:url')).toBe(`${server.url}${path}`);
    expect(local.tags.get('og:description')).toBe('Shared from a cache');
  });
});
