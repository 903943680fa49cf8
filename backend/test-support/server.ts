import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/core/config';
import type { Feature } from '../src/core/feature';
import { createFeatures } from '../src/features';
import type { ImageClassifier } from '../src/lolgram';
import { createLogger, type Logger } from '../src/core/logger';
import { startServer, type RunningServer } from '../src/core/server';
import {
  createScratchDatabase,
  dropRedisPrefix,
  migratedEmbeddedDataDir,
  postgresAnswers,
  redisAnswers,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  uniqueName,
} from './services';

export type StorageMode = 'postgres' | 'redis';

export interface TestServer extends RunningServer {
  mode: StorageMode;
  databaseUrl: string | undefined;
  redisPrefix: string;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  mode?: StorageMode;
  env?: Record<string, string>;
  extraFeatures?: Feature[];
  /** Reuse a database made by an earlier server (a restart, or two processes). */
  databaseUrl?: string;
  /** Run on the embedded Postgres (no DATABASE_URL), as `npm start` does by default. */
  embedded?: boolean;
  /** Reuse the data directory of an earlier server (the embedded database, images, secret). */
  dataDir?: string;
  redisPrefix?: string;
  /** The clock of the server's in-process limits (a test freezes it). */
  now?: () => number;
  /** Moderation's image classifier, for a test that stands in for the model. */
  imageClassifier?: ImageClassifier | null;
  /** The server's logger, for a test that reads the lines operators would see. */
  logger?: Logger;
}

let warned = false;

/**
 * Starts the real app in-process on a free port, against a fresh database in the local Postgres
 * (or, when that does not answer, the embedded one, said loudly) and, in redis mode, the local Redis.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const mode = options.mode ?? 'postgres';
  // A new embedded database is copied with its migrations applied, as for a scratch Postgres one.
  const dataDir =
    options.dataDir ??
    (options.embedded
      ? await migratedEmbeddedDataDir()
      : await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-test-')));
  let databaseUrl = options.databaseUrl;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl && !options.embedded) {
    if (await postgresAnswers()) {
      const scratch = await createScratchDatabase({ migrated: true });
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    } else if (process.env.CI) {
      throw new Error(`The local Postgres (${TEST_DATABASE_URL}) does not answer: start it first.`);
    } else if (!warned) {
      warned = true;
      console.warn(
        `\n*** The local Postgres (${TEST_DATABASE_URL}) does not answer: ` +
          'integration tests run on the embedded Postgres instead. ***\n',
      );
    }
  }
  const redisPrefix = options.redisPrefix ?? uniqueName('tgtest');
  if (mode === 'redis' && !(await redisAnswers())) {
    throw new Error(
      `Redis at ${TEST_REDIS_URL} does not answer: start it (see docs/OPERATIONS.md) to run these tests`,
    );
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    // The image model takes a second of CPU to load: only the tests about it turn it on.
    MODERATION_IMAGE_CHECK: 'off',
    // Test files sign many accounts up from one address: only the tests about it set the limit.
    SIGNUPS_PER_HOUR: '100000',
    // Nor for uploads: one account posts many images in some files.
    UPLOADS_PER_HOUR: '100000',
    // Admission control by the process's capacity: a test machine shared with other work lags
    // now and then, and a suite opens sockets faster than players do; the tests of it set these.
    ADMIT_EVENT_LOOP_LAG_MS: '60000',
    ADMIT_TAP_WAIT_MS: '600000',
    ADMIT_NEW_SOCKETS_PER_SECOND: '100000',
    REDIS_PREFIX: redisPrefix,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(mode === 'redis' ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...options.env,
  });
  const { imageClassifier } = options;
  const features = (deps: Parameters<typeof createFeatures>[0]) =>
    createFeatures(deps, { imageClassifier });
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const server = await startServer(config, logger, features, {
    extraFeatures: options.extraFeatures,
    now: options.now,
  });
  return {
    ...server,
    mode,
    databaseUrl,
    redisPrefix,
    async stop() {
      await server.close();
      if (mode === 'redis' && !options.redisPrefix) await dropRedisPrefix(redisPrefix);
      await dropDatabase?.();
      if (!options.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
