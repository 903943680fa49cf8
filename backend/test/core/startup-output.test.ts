import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config';
import { startServer } from '../../src/core/server';
import { createFeatures } from '../../src/features';
import { runningLine, whereTheDataIs } from '../../src/core/startup-line';
import { PUBLIC_ORIGIN_NOTICE } from '../../src/accounts/sign-in-site';
import { createScratchDatabase, postgresAnswers } from '../../test-support/services';

const DATA_DIR = path.join(os.tmpdir(), 'tapgram-data');
const config = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR, ...env });

describe('the line that says where the app runs and where its data is', () => {
  it('names the URL and the data directory when everything is kept there', () => {
    expect(runningLine('http://localhost:3000', config())).toBe(
      `TapGram is running at http://localhost:3000 · data in ${DATA_DIR}`,
    );
  });

  it('names the services of a deployment, without their passwords', () => {
    const where = whereTheDataIs(
      config({
        DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/tapgram',
        REDIS_URL: 'redis://:hunter2@cache.internal:6379',
      }),
    );
    expect(where).toBe(
      `PostgreSQL at db.internal:5432/tapgram, Redis at cache.internal:6379 and ${DATA_DIR} (images)`,
    );
    expect(where).not.toMatch(/s3cret|hunter2|app:/);
    expect(
      whereTheDataIs(
        config({
          DATABASE_URL: 'postgres://db.internal/tapgram',
          IMAGE_STORE: 's3',
          S3_BUCKET: 'tapgram-images',
        }),
      ),
    ).toBe(`PostgreSQL at db.internal/tapgram and the bucket tapgram-images`);
  });

  it('says how many workers serve, and keeps the URL apart for the scripts that read it', () => {
    const line = runningLine('http://127.0.0.1:41234', config(), 4);
    expect(line).toMatch(/^TapGram is running at http:\/\/127\.0\.0\.1:41234 \(4 workers\) · /);
    // test-support/process.ts takes the URL from this line.
    expect(/running at (http:\/\/\S+)/.exec(line)?.[1]).toBe('http://127.0.0.1:41234');
  });
});

describe('the PUBLIC_ORIGIN notice at start', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  /** Starts the production server and answers the messages it logged while starting. */
  async function startupMessages(env: Record<string, string> = {}) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-startup-'));
    stops.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (await postgresAnswers()) {
      const scratch = await createScratchDatabase();
      databaseUrl = scratch.url;
      stops.push(scratch.drop);
    }
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const server = await startServer(
      loadConfig({
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        MODERATION_IMAGE_CHECK: 'off',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...env,
      }),
      logger,
      createFeatures,
    );
    await server.close();
    return lines;
  }

  it('says plainly that wallet sign-in works on localhost, and what to set for a public site', async () => {
    const warnings = (await startupMessages()).filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toContain(PUBLIC_ORIGIN_NOTICE);
    expect(PUBLIC_ORIGIN_NOTICE).toMatch(
      /wallet sign-in works only when the site is opened on localhost/,
    );
    expect(PUBLIC_ORIGIN_NOTICE).toMatch(
      /For a public site, set PUBLIC_ORIGIN to the address people open/,
    );
    expect(PUBLIC_ORIGIN_NOTICE).toMatch(/PUBLIC_ORIGIN=https:\/\/\S+/);
  });

  it('is not given once PUBLIC_ORIGIN is set', async () => {
    const messages = (await startupMessages({ PUBLIC_ORIGIN: 'https://tapgram.example' })).map(
      (line) => line.msg,
    );
    // The start went as far as the notice would be: the migrations and the features ran.
    expect(messages.some((msg) => /migrations/.test(msg))).toBe(true);
    expect(messages.filter((msg) => msg.includes('PUBLIC_ORIGIN'))).toEqual([]);
  });
});
