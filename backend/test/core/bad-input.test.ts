import { messages } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import {
  makeAccount,
  makeJpeg,
  makeName,
  makePost,
  signInProof,
  type Account,
} from '../lolgram/builders';
import { makeVisiblePost } from '../lolgram/post-checks';

const BAD_URL = 'The address is not valid: it has malformed percent-encoding or a NUL character';

/** A multipart body for `field`, cut short or sent without its boundary. */
function multipart(field: string, jpeg: Buffer) {
  const boundary = '----tapgram-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    jpeg,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    truncated: { type: `multipart/form-data; boundary=${boundary}`, body: body.subarray(0, 200) },
    'without a boundary': { type: 'multipart/form-data', body },
  };
}

describe('bad input is a 4xx with a clear {error}, never a 5xx', () => {
  let server: TestServer;
  let account: Account;
  let jpeg: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    account = await makeAccount(server.url);
    jpeg = await makeJpeg({ width: 64, height: 48 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('a NUL character or an unpaired surrogate in any text', () => {
    it.each(['\u0000', 'ab\u0000cd', '\uD800', 'x\uDC00'])(
      'is refused in the login username and password (%j)',
      async (bad) => {
        for (const body of [
          { username: bad, password: 'correct horse battery' },
          { username: account.user.username, password: `pass${bad}word` },
        ]) {
          const res = await request(server.url).post('/api/lolgram/users/login').send(body);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ error: messages.unstorableText });
        }
      },
    );

    it('is refused in a bio', async () => {
      const res = await account.agent
        .put(`/api/lolgram/users/${account.user.id}`)
        .send({ username: account.user.username, bio: 'hi\u0000there' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: messages.unstorableText });
    });

    it('is refused in a caption and a location name', async () => {
      const caption = await makePost(account, jpeg, { caption: 'caption \u0000' });
      expect(caption.status).toBe(400);
      expect(caption.body).toEqual({ error: messages.unstorableText });
      const location = await makePost(account, jpeg, {
        location: JSON.stringify({ name: 'Lon\u0000don', lat: 1, lng: 2 }),
      });
      expect(location.status).toBe(400);
      expect(location.body).toEqual({ error: messages.unstorableText });
    });

    it('is refused in report details', async () => {
      const author = await makeAccount(server.url);
      const post = await makeVisiblePost(author, {}, jpeg);
      const res = await account.agent
        .post(`/api/lolgram/posts/${post.id}/report`)
        .send({ reason: 'other', details: 'look \u0000' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: messages.unstorableText });
    });

    it('is refused in a wallet sign-in nonce', async () => {
      const proof = await signInProof(server.url);
      const res = await request(server.url)
        .post('/api/lolgram/auth/wallet/login')
        .send({ proof: { ...proof, input: { ...proof.input, nonce: 'n\u0000' } } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: messages.unstorableText });
    });
  });

  describe('a bad address', () => {
    it.each([
      '/api/lolgram/users/username/%00',
      '/api/lolgram/users/wallet/%00',
      '/api/lolgram/users/username/%FF',
      '/api/lolgram/users/username/%E0%A4%A',
      '/api/lolgram/users/username/%ED%A0%80',
      '/api/users/%00/rank',
      '/api/leaderboard/users?limit=%00',
      '/api/lolgram/posts/feed?before=%00',
      '/api/lolgram/posts/feed?before=%E0%A4%A',
      '/healthz?x=%FF',
    ])('answers %s with 400', async (path) => {
      const res = await request(server.url).get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BAD_URL });
    });

    it('still serves well-encoded text in paths and queries', async () => {
      const res = await request(server.url).get('/api/lolgram/users/username/%F0%9F%98%82');
      expect(res.status).toBe(404);
      const board = await request(server.url).get(
        '/api/leaderboard/users?limit=5&note=caf%C3%A9+%2B',
      );
      expect(board.status).toBe(200);
    });
  });

  describe('a broken multipart body', () => {
    const uploads = () => [
      ['POST /api/lolgram/posts', account.agent.post('/api/lolgram/posts'), 'image'] as const,
      [
        'PUT avatar',
        account.agent.put(`/api/lolgram/users/${account.user.id}/avatar`),
        'avatar',
      ] as const,
    ];

    it.each(['truncated', 'without a boundary'] as const)(
      'is a 400 with a clear error when %s',
      async (kind) => {
        for (const [name, req, field] of uploads()) {
          const { type, body } = multipart(field, jpeg)[kind];
          const res = await req.set('content-type', type).send(body);
          expect({ name, status: res.status, body: res.body }).toEqual({
            name,
            status: 400,
            body: { error: 'The upload is not valid multipart form data, or it was cut short' },
          });
        }
      },
    );

    it('answers a form field over its size with 413', async () => {
      const res = await makePost(account, jpeg, { caption: 'x'.repeat(100_000) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'A form field of the upload is too large' });
    });
  });

  describe('a wallet proof whose signature is not 64 bytes', () => {
    it.each([
      ['empty', ''],
      ['1 byte', Buffer.alloc(1).toString('base64')],
      ['63 bytes', Buffer.alloc(63, 1).toString('base64')],
      ['65 bytes', Buffer.alloc(65, 1).toString('base64')],
    ])('is refused (%s)', async (_name, signature) => {
      const proof = await signInProof(server.url);
      const address = String(proof.input.address);
      const body = { proof: { ...proof, output: { ...proof.output, signature } } };
      for (const path of ['/api/lolgram/auth/wallet/login', '/api/lolgram/users/create']) {
        const res = await request(server.url)
          .post(path)
          .send(
            path.endsWith('create')
              ? {
                  ...body,
                  username: `wallet_${address.slice(0, 8)}`,
                  walletAddress: address,
                }
              : body,
          );
        expect([400, 401]).toContain(res.status);
        expect(res.body.error).toMatch(/signature/i);
      }
    });
  });

  it('never sends a lone surrogate to the database as a replacement character', async () => {
    const name = makeName('s');
    const res = await request(server.url)
      .post('/api/lolgram/users/create')
      .send({ username: name, password: 'pass\uD800word!' });
    expect(res.status).toBe(400);
  });
});
