import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HandshakeRefusal } from '../../src/core/metrics';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { postgresAnswers, TEST_REDIS_URL } from '../../test-support/services';
import { storageModes } from '../game/modes';
import { connectGame } from '../game/socket-client';

const SECRET = 'test-secret-test-secret-test-secret-0123';
// Behind a trusted proxy (the load balancer), so that each test speaks from its own address.
const PROXIED = { TRUST_PROXY: '1' };
// Three new sockets per address, then none for three minutes: no test outlasts the window.
const THREE_AT_ONCE = { NEW_SOCKETS_BURST: '3', NEW_SOCKETS_PER_MINUTE: '1' };
const TOO_MANY = 'Too many new connections from this address, try again shortly';

let clients = 0;
const newAddress = () => `198.51.100.${(clients += 1)}`;

/** Game sockets opened by a test, closed after it. */
const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.disconnect();
});

/** Opens a game socket from `address`; resolves false when the server refuses it. */
async function opens(url: string, address: string): Promise<boolean> {
  try {
    opened.push(await connectGame(url, undefined, { 'X-Forwarded-For': address }));
    return true;
  } catch {
    return false;
  }
}

/**
 * A game client from `address` that tries again after a refusal, as the game screen's does
 * (socket.io-client's own backoff, shortened for the test).
 */
function retryingClient(url: string, address: string): Socket {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: { 'X-Forwarded-For': address },
    forceNew: true,
    reconnectionDelay: 50,
    reconnectionDelayMax: 200,
  });
  opened.push(socket);
  return socket;
}

const event = (socket: Socket, name: 'connect' | 'connect_error') =>
  new Promise<void>((resolve) => socket.once(name, () => resolve()));

async function refused(server: TestServer, reason: HandshakeRefusal): Promise<number> {
  const metric = server.metrics.registry.getSingleMetric('tapgram_socket_handshakes_refused_total');
  const { values } = await metric!.get();
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

describe.each(storageModes)('new game sockets per address (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode, env: { ...PROXIED, ...THREE_AT_ONCE } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses the handshakes beyond the burst from one address, counts them, and lets other addresses in', async () => {
    const crowd = newAddress();
    for (let i = 0; i < 3; i += 1) expect(await opens(server.url, crowd)).toBe(true);
    expect(await opens(server.url, crowd)).toBe(false);
    expect(await refused(server, 'rate_limited')).toBe(1);

    // Refused in the handshake itself (no session exists), with the reason.
    const polling = await request(server.url)
      .get('/socket.io/?EIO=4&transport=polling')
      .set('X-Forwarded-For', crowd);
    expect(polling.status).toBe(403);
    expect(polling.body).toEqual({ code: 4, message: TOO_MANY });
    expect(await refused(server, 'rate_limited')).toBe(2);

    expect(await opens(server.url, newAddress())).toBe(true);
  });

  it('leaves a refused client trying again on its own, as after a network failure', async () => {
    const crowd = newAddress();
    for (let i = 0; i < 3; i += 1) expect(await opens(server.url, crowd)).toBe(true);
    const client = retryingClient(server.url, crowd);
    await event(client, 'connect_error');
    // A middleware's refusal would leave it inactive: given up for good.
    expect(client.active).toBe(true);
    expect(client.connected).toBe(false);
  });
});

describe.each(storageModes)('game sockets held by one address (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode, env: { ...PROXIED, SOCKETS_PER_ADDRESS: '2' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a socket beyond what one address may hold, and lets its retry in once one closes', async () => {
    const crowd = newAddress();
    expect(await opens(server.url, crowd)).toBe(true);
    expect(await opens(server.url, crowd)).toBe(true);
    const client = retryingClient(server.url, crowd);
    await event(client, 'connect_error');
    expect(await refused(server, 'too_many_sockets')).toBeGreaterThan(0);
    expect(await opens(server.url, newAddress())).toBe(true);

    const connected = event(client, 'connect');
    opened[0].disconnect();
    await connected;
    expect(client.connected).toBe(true);
  });
});

describe.runIf((await redisAvailable()) && (await postgresAnswers()))(
  'new game sockets per address, across two processes on one Redis',
  () => {
    let a: TestServer;
    let b: ServerProcess;
    beforeAll(async () => {
      a = await startTestServer({
        mode: 'redis',
        env: { ...PROXIED, ...THREE_AT_ONCE, SESSION_SECRET: SECRET },
      });
      b = await spawnServer({
        ...PROXIED,
        ...THREE_AT_ONCE,
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
    });

    it('counts the handshakes of one address on both, and lets a refused client in when the window ends', async () => {
      const crowd = newAddress();
      expect(await opens(a.url, crowd)).toBe(true);
      expect(await opens(b.url, crowd)).toBe(true);
      expect(await opens(a.url, crowd)).toBe(true);
      expect(await opens(b.url, crowd)).toBe(false);
      expect(await opens(a.url, crowd)).toBe(false);
      expect(await refused(a, 'rate_limited')).toBe(1);
      expect(await opens(b.url, newAddress())).toBe(true);

      const client = retryingClient(b.url, crowd);
      await event(client, 'connect_error');
      const connected = event(client, 'connect');
      // The window's end, without waiting three minutes: its count expires from Redis.
      const redis = new Redis(TEST_REDIS_URL);
      try {
        expect(await redis.del(`${a.redisPrefix}:limit:socket-handshakes:${crowd}`)).toBe(1);
      } finally {
        redis.disconnect();
      }
      await connected;
      expect(client.connected).toBe(true);
    });
  },
);
