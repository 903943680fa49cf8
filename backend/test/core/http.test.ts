import { Router } from 'express';
import { healthSchema, readinessSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../../src/core/errors';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';

// A feature of the test's own, to reach the error paths through the real middleware.
function probeFeature() {
  const router = Router();
  router.post('/probe/validate', (req, res) => {
    const body = parseInput(z.object({ name: z.string().min(3, 'Name is too short') }), req.body);
    res.json(body);
  });
  router.get('/probe/crash', () => {
    throw new Error('secret internals: connection string postgres://user:pw@db');
  });
  router.get('/probe/library-404', () => {
    // What express.static and friends throw: a status, and a message naming files.
    throw Object.assign(new Error("ENOENT: no such file or directory, stat '/srv/web/x.js'"), {
      status: 404,
      expose: false,
    });
  });
  router.get('/probe/crash-async', async () => {
    await Promise.resolve();
    throw new TypeError('undefined is not a function at /srv/app.ts:42');
  });
  return { name: 'probe', router };
}

describe('HTTP core', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ extraFeatures: [probeFeature()] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a failed validation with 400 and the rule message', async () => {
    const res = await request(server.url).post('/api/probe/validate').send({ name: 'ab' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Name is too short' });
  });

  it('answers malformed JSON with 400 {error}', async () => {
    const res = await request(server.url)
      .post('/api/probe/validate')
      .set('content-type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body is not valid JSON' });
  });

  it('answers a body over the limit with 413 {error}', async () => {
    const res = await request(server.url)
      .post('/api/probe/validate')
      .send({ name: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is too large' });
  });

  it('answers an unknown /api path with 404 JSON, not the web page', async () => {
    const res = await request(server.url).get('/api/does/not/exist');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'No such endpoint: GET /api/does/not/exist' });
  });

  it.each(['/api/probe/crash', '/api/probe/crash-async'])(
    'answers a thrown internal error at %s with 500 and no internals',
    async (path) => {
      const res = await request(server.url).get(path);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
      expect(res.text).not.toMatch(/secret|postgres:|\.ts|stack|TypeError/);
    },
  );

  it('sets a request id and security headers on every answer', async () => {
    const res = await request(server.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(expectAnswer(healthSchema, res.body)).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('reports readiness of the database, with Redis not configured', async () => {
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(expectAnswer(readinessSchema, res.body)).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: 'not configured' },
    });
  });

  it('applied the schema migrations', async () => {
    const { rows } = await server.db.pool.query<{ name: string }>('SELECT name FROM pgmigrations');
    expect(rows.map((r) => r.name)).toContain('1732300000000_initial-schema');
  });

  it("answers a library's 4xx with the status's own words, never its message", async () => {
    const res = await request(server.url).get('/api/probe/library-404');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not Found' });
  });

  it('answers a POST to a page with 404 JSON, not an HTML error page', async () => {
    const res = await request(server.url).post('/no-such-page').send({});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No such endpoint: POST /no-such-page' });
  });

  it('answers an oversized body on the fast tap route with 413 {error}, not a reset', async () => {
    const res = await request(server.url)
      .post('/api/tap')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ padding: 'x'.repeat(200_000) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is too large' });
  });

  it("keeps a caller's request id on the fast route as on the others", async () => {
    const [fast, express] = await Promise.all(
      ['/api/tap', '/api/probe/validate'].map((path) =>
        request(server.url).post(path).set('x-request-id', 'trace-123').send({}),
      ),
    );
    expect(fast.headers['x-request-id']).toBe('trace-123');
    expect(express.headers['x-request-id']).toBe('trace-123');
    for (const name of ['content-security-policy', 'x-content-type-options', 'content-type']) {
      expect(fast.headers[name]).toBe(express.headers[name]);
    }
    expect(fast.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
  });
});
