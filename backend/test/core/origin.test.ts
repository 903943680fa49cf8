import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { fromThisSite, requestProtocol } from '../../src/core/origin';
import { makePlayer, makeUsername, tap } from '../game/builders';
import { connectGame, gameSockets, sendTaps } from '../game/socket-client';
import { startTestServer, type TestServer } from '../../test-support/server';

const PUBLIC_ORIGIN = 'https://tapgram.example';

describe('requests made by pages of other sites', () => {
  let server: TestServer;
  // What a page of this site sends: the server's own scheme and host.
  let site: string;
  const connect = gameSockets(() => server.url);
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_ORIGIN } });
    site = server.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("opens the game channel to this site's pages, PUBLIC_ORIGIN and clients without an Origin only", async () => {
    const player = await makePlayer(server.url);
    const foreign: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: site.replace('http:', 'https:') },
      { Origin: `http://${new URL(site).hostname}.evil.example:${server.port}` },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const opened = await connectGame(server.url, player.cookie, headers).then(
        (socket) => {
          socket.disconnect();
          return true;
        },
        () => false,
      );
      expect(opened, JSON.stringify(headers)).toBe(false);
    }
    const own: Record<string, string>[] = [{ Origin: site }, { Origin: PUBLIC_ORIGIN }, {}];
    for (const headers of own) {
      const socket = await connect(player.cookie, headers);
      expect(await sendTaps(socket, player.session.id, 1)).toMatchObject({ ok: true });
    }
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalPoints).toBe(
      own.length,
    );
  });

  it('refuses a long-polling handshake from another site with 403', async () => {
    const handshake = (origin: string) =>
      request(server.url).get('/socket.io/?EIO=4&transport=polling').set('Origin', origin);
    expect((await handshake('https://evil.example')).status).toBe(403);
    expect((await handshake(site)).status).toBe(200);
  });

  it("refuses HTTP writes from this host under another scheme, and accepts PUBLIC_ORIGIN's", async () => {
    const logout = (origin: string) =>
      request(server.url).post('/api/lolgram/users/logout').set('Origin', origin);
    const otherScheme = await logout(site.replace('http:', 'https:'));
    expect(otherScheme.status).toBe(403);
    expect(otherScheme.body).toEqual({ error: 'Cross-site request refused' });
    expect((await logout(site)).status).toBe(204);
    expect((await logout(PUBLIC_ORIGIN)).status).toBe(204);
  });

  it("refuses the game's writes from another site with 403, creating and counting nothing", async () => {
    const player = await makePlayer(server.url);
    const username = makeUsername();
    const stored = async () => {
      const { rows } = await server.db.pool.query<Record<string, string | number>>(
        `SELECT (SELECT count(*) FROM game_users WHERE lower(username) = lower($1)) AS users,
                  (SELECT count(*) FROM game_sessions WHERE user_id = $2) AS sessions,
                  (SELECT total_taps FROM game_users WHERE id = $2) AS taps`,
        [username, player.user.id],
      );
      return Object.fromEntries(
        Object.entries(rows[0]).map(([key, value]) => [key, Number(value)]),
      );
    };
    const foreign: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: site.replace('http:', 'https:') },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const answers = [
        await request(server.url).post('/api/users').set(headers).send({ username, country: 'GB' }),
        await request(server.url)
          .post('/api/sessions')
          .set(headers)
          .set('Cookie', player.cookie)
          .send({ userId: player.user.id }),
        await tap(server.url, player).set(headers),
      ];
      for (const res of answers) {
        expect([res.status, res.body], JSON.stringify(headers)).toEqual([
          403,
          { error: 'Cross-site request refused' },
        ]);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
    expect(await stored()).toEqual({ users: 0, sessions: 1, taps: 0 });

    // This site's pages, PUBLIC_ORIGIN and clients without an Origin (tools, the bench) play on.
    for (const headers of [{ Origin: site }, { Origin: PUBLIC_ORIGIN }, {}]) {
      expect((await tap(server.url, player).set(headers)).status).toBe(200);
      const session = await request(server.url)
        .post('/api/sessions')
        .set(headers)
        .set('Cookie', player.cookie)
        .send({ userId: player.user.id });
      expect(session.status).toBe(201);
    }
    const created = await request(server.url)
      .post('/api/users')
      .set('Origin', site)
      .send({ username, country: 'GB' });
    expect(created.status).toBe(201);
    expect(await stored()).toEqual({ users: 1, sessions: 4, taps: 3 });
  });
});

describe('the origin rule behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reads the scheme of Express writes and of the tap route from X-Forwarded-Proto alike', async () => {
    const player = await makePlayer(server.url);
    const https = `https://${new URL(server.url).host}`;
    const write = (origin: string) => [
      request(server.url)
        .post('/api/users')
        .set({ Origin: origin, 'X-Forwarded-Proto': 'https' })
        .send({ username: makeUsername(), country: 'GB' }),
      tap(server.url, player).set({ Origin: origin, 'X-Forwarded-Proto': 'https' }),
    ];
    expect((await Promise.all(write(https))).map((res) => res.status)).toEqual([201, 200]);
    expect((await Promise.all(write(server.url))).map((res) => res.status)).toEqual([403, 403]);
  });
});

describe('the origin rule', () => {
  const host = 'tapgram.example';
  it('takes the scheme from X-Forwarded-Proto only when the proxy is trusted, as Express does', () => {
    const req = {
      socket: { remoteAddress: '10.0.0.2' },
      headers: { 'x-forwarded-proto': 'https, http' },
    } as unknown as IncomingMessage;
    expect(requestProtocol(req, () => true)).toBe('https');
    expect(requestProtocol(req, () => false)).toBe('http');
    expect(
      fromThisSite(
        { host, origin: `https://${host}` },
        requestProtocol(req, () => true),
        undefined,
      ),
    ).toBe(true);
    expect(
      fromThisSite(
        { host, origin: `https://${host}` },
        requestProtocol(req, () => false),
        undefined,
      ),
    ).toBe(false);
  });

  it('compares whole origins: scheme, host and port, ignoring case and default ports', () => {
    expect(
      fromThisSite({ host: 'TapGram.example:443', origin: `https://${host}` }, 'https', undefined),
    ).toBe(true);
    expect(fromThisSite({ host, origin: `https://${host}:8443` }, 'https', undefined)).toBe(false);
    expect(fromThisSite({ host, origin: `http://${host}` }, 'https', undefined)).toBe(false);
    expect(
      fromThisSite({ host: 'internal:3000', origin: `https://${host}` }, 'http', `https://${host}`),
    ).toBe(true);
  });
});
