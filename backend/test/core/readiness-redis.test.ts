import { once } from 'node:events';
import { readinessSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { redisAvailable } from '../../test-support/availability';
import { startTestServer, type TestServer } from '../../test-support/server';

describe.runIf(await redisAvailable())('readiness with Redis configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'redis' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('checks the database, Redis and the generation of the game counters Redis holds', async () => {
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(expectAnswer(readinessSchema, res.body)).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: 'ok', gameCounters: 'ok' },
    });
  });

  it('answers 503 when Redis stops answering', async () => {
    const redis = server.redis;
    if (!redis) throw new Error('the server runs with Redis');
    // Closed for good once the connection has ended (a close not yet seen would still be 'ready',
    // and connecting again would then be refused).
    const ended = once(redis, 'end');
    redis.disconnect();
    await ended;
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(503);
    expect(expectAnswer(readinessSchema, res.body).checks.redis).toBe('down');
    await redis.connect();
    expect((await request(server.url).get('/readyz')).status).toBe(200);
  });
});
