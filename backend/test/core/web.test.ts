import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIR } from '../../src/core/server';
import { makePlayer } from '../game/builders';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount } from '../lolgram/builders';
import { makeVisiblePost } from '../lolgram/post-checks';

/** An answer as it came over the wire: its bytes not decoded. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    },
  );
}

function decode(bytes: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(bytes).toString();
  return bytes.toString();
}

describe('the web app and its answers on the wire', () => {
  let server: TestServer;
  let script: string;
  beforeAll(async () => {
    server = await startTestServer();
    const html = await fs.readFile(path.join(WEB_DIR, 'index.html'), 'utf8');
    // The entry script the build named in index.html (run `npm run build` first).
    script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ['/', 'Play the game'],
    ['/play', 'Tap the character to earn a point'],
    ['/leaderboard', 'Live Leaderboard'],
    ['/lolgram', 'Login / Sign Up'],
  ])('serves %s its own HTML, rendered at build time, with 200', async (page, text) => {
    const res = await request(server.url).get(page);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain(`<div id="root" data-prerendered="${page}">`);
    expect(res.text).toContain(text);
  });

  it.each([
    '/lolgram/someone',
    '/lolgram/p/3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
    '/admin',
    '/play/',
  ])('serves the plain shell of the app for its page %s with 200', async (page) => {
    const res = await request(server.url).get(page);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<div id="root"></div>');
  });

  it.each(['/nope', '/lolgram/someone/else', '/lolgram/p/not-a-post', '/play/more', '/admin/x'])(
    'serves the app, which says Page Not Found, for an unknown path %s with 404',
    async (page) => {
      const res = await request(server.url).get(page);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<div id="root"></div>');
    },
  );

  it('serves the service worker and the web app manifest, checked for a new version at each use', async () => {
    const worker = await request(server.url).get('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await request(server.url).get('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(manifest.text)).toMatchObject({ start_url: '/play', display: 'standalone' });
  });

  it('serves robots.txt as a file', async () => {
    const res = await request(server.url).get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/^User-agent: \*/m);
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
  ])(
    'sends a hashed asset pre-compressed for Accept-Encoding %s, cached for a year',
    async (accept, encoding) => {
      const original = await fs.readFile(path.join(WEB_DIR, script));
      const res = await rawGet(`${server.url}${script}`, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(decode(res.body, encoding)).toBe(original.toString());
      if (encoding) expect(res.body.length).toBeLessThan(original.length / 2);
    },
  );

  it('compresses a large JSON answer for a client that takes it, and not a small one', async () => {
    for (let i = 0; i < 30; i += 1) await makePlayer(server.url);
    const board = await rawGet(`${server.url}/api/leaderboard/users?limit=30`, 'br');
    expect(board.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(board.body, 'br'))).toHaveLength(30);
    const small = await rawGet(`${server.url}/api/milestone/100k`, 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(decode(small.body, undefined))).toHaveProperty('usersOver100k');
  });

  it("compresses the feed's fast route the same way, for every reader of the shared page", async () => {
    const author = await makeAccount(server.url);
    for (const caption of ['one', 'two', 'three', 'four']) {
      await makeVisiblePost(author, { caption: `${caption} ${'ha'.repeat(100)}` });
    }
    const url = `${server.url}/api/lolgram/posts/feed?limit=20`;
    const plain = await rawGet(url, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    for (const encoding of ['br', 'gzip']) {
      const res = await rawGet(url, encoding);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decode(res.body, encoding))).toEqual(JSON.parse(plain.body.toString()));
    }
  });
});
