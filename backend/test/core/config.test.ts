import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../src/core/config';

const REPO_DATA_DIR = fileURLToPath(new URL('../../../data', import.meta.url));

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.ADMIN_USERNAMES).toEqual([]);
    expect(config.PUBLIC_ORIGIN).toBeUndefined();
  });

  it('signs players in from Telegram with a bot token and the Mini App link, never shown', () => {
    const token = '123456789:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';
    const config = loadConfig({
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_APP_URL: 'https://t.me/TapGramBot/play/',
    });
    expect(config.TELEGRAM_APP_URL).toBe('https://t.me/TapGramBot/play');
    expect(config.TELEGRAM_AUTH_TTL_SECONDS).toBe(3600);
    expect(configError({ TELEGRAM_BOT_TOKEN: token })).toMatch(
      /TELEGRAM_APP_URL \(unset\): is required with TELEGRAM_BOT_TOKEN/,
    );
    const bad = configError({ TELEGRAM_BOT_TOKEN: 'not-a-token', TELEGRAM_APP_URL: 'x' });
    expect(bad).toMatch(/TELEGRAM_BOT_TOKEN \(value hidden\): must be the bot token/);
    expect(bad).toMatch(/TELEGRAM_APP_URL "x": must be the Mini App link/);
    expect(bad).not.toContain('not-a-token');
    const telegram = {
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_APP_URL: 'https://t.me/TapGramBot/play',
    };
    expect(
      configError({ ...telegram, NODE_ENV: 'production', PUBLIC_ORIGIN: 'http://tapgram.example' }),
    ).toMatch(/PUBLIC_ORIGIN "http:\/\/tapgram.example": must be the https origin/);
    expect(configError({ ...telegram, NODE_ENV: 'production' })).toMatch(/PUBLIC_ORIGIN \(unset\)/);
    expect(
      loadConfig({ ...telegram, NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://tapgram.example' })
        .TELEGRAM_BOT_TOKEN,
    ).toBe(token);
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT "abc"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ CHANNEL_PING_SECONDS: '3000000' })).toThrow(/CHANNEL_PING_SECONDS/);
  });

  it('treats empty optional URLs as unset and splits the admin list', () => {
    const config = loadConfig({ DATABASE_URL: '', ADMIN_USERNAMES: ' Alice, bob ,,' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_USERNAMES).toEqual(['alice', 'bob']);
  });

  it('treats an empty (or blank) value as unset for every variable', () => {
    const config = loadConfig({
      SESSION_SECRET: '',
      PORT: '',
      HOST: ' ',
      NODE_ENV: '',
      LOG_LEVEL: '',
      DATA_DIR: '',
      REDIS_URL: '',
      PUBLIC_ORIGIN: '',
      TRUST_PROXY: '',
      TAP_BURST: '',
      MODERATION_HOLD_THRESHOLD: '',
      SOCIAL_URL: '',
    });
    expect(config.SESSION_SECRET).toBeUndefined();
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('0.0.0.0');
    expect(config.NODE_ENV).toBe('development');
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.DATA_DIR).toBe(REPO_DATA_DIR);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PUBLIC_ORIGIN).toBeUndefined();
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.TAP_BURST).toBe(40);
    expect(config.MODERATION_HOLD_THRESHOLD).toBe(0.9);
    expect(config.SOCIAL_URL).toBe('https://x.com/tapgram');
  });

  it('never echoes the session secret, and masks the password of a URL', () => {
    const secret = configError({ SESSION_SECRET: 'hunter2-but-short' });
    expect(secret).toMatch(/SESSION_SECRET/);
    expect(secret).not.toContain('hunter2');
    const database = configError({ DATABASE_URL: 'mysql://app:s3cr3t-pw@db.internal/app' });
    expect(database).toMatch(/DATABASE_URL "mysql:\/\/app:\*\*\*@db\.internal\/app"/);
    expect(database).not.toContain('s3cr3t');
    const redis = configError({ REDIS_URL: 'http://:r3d1s@cache:6379' });
    expect(redis).toMatch(/REDIS_URL/);
    expect(redis).not.toContain('r3d1s');
  });

  it('requires the hold threshold to be at least the queue threshold', () => {
    const message = configError({
      MODERATION_QUEUE_THRESHOLD: '0.8',
      MODERATION_HOLD_THRESHOLD: '0.6',
    });
    expect(message).toMatch(/MODERATION_HOLD_THRESHOLD/);
    expect(message).toMatch(/at least MODERATION_QUEUE_THRESHOLD \(0\.8\)/);
    expect(
      loadConfig({ MODERATION_QUEUE_THRESHOLD: '0.7', MODERATION_HOLD_THRESHOLD: '0.7' })
        .MODERATION_HOLD_THRESHOLD,
    ).toBe(0.7);
  });

  it("limits new game sockets per address generously, and wants a burst of a second's worth", () => {
    expect(loadConfig({})).toMatchObject({
      NEW_SOCKETS_PER_MINUTE: 3000,
      NEW_SOCKETS_BURST: 500,
      SOCKETS_PER_ADDRESS: 2000,
    });
    const message = configError({ NEW_SOCKETS_PER_MINUTE: '600', NEW_SOCKETS_BURST: '9' });
    expect(message).toMatch(/NEW_SOCKETS_BURST "9": must be at least a second's worth/);
    expect(message).toMatch(/NEW_SOCKETS_PER_MINUTE \(10\)/);
    expect(
      loadConfig({ NEW_SOCKETS_PER_MINUTE: '600', NEW_SOCKETS_BURST: '10' }).NEW_SOCKETS_BURST,
    ).toBe(10);
  });

  it('defaults DATA_DIR to the repository data directory whatever the working directory', () => {
    const cwd = process.cwd();
    const elsewhere = path.dirname(REPO_DATA_DIR);
    try {
      process.chdir(path.join(elsewhere, 'backend'));
      const fromBackend = loadConfig({}).DATA_DIR;
      process.chdir(elsewhere);
      const fromRoot = loadConfig({}).DATA_DIR;
      expect(fromBackend).toBe(REPO_DATA_DIR);
      expect(fromRoot).toBe(REPO_DATA_DIR);
      // An explicitly given relative directory stays relative to where the command runs.
      expect(loadConfig({ DATA_DIR: 'var/tapgram' }).DATA_DIR).toBe(
        path.join(elsewhere, 'var/tapgram'),
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads PUBLIC_ORIGIN as an origin, and refuses anything else', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://TapGram.example/' }).PUBLIC_ORIGIN).toBe(
      'https://tapgram.example',
    );
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://localhost:5173' }).PUBLIC_ORIGIN).toBe(
      'http://localhost:5173',
    );
    for (const bad of ['tapgram.example', 'ftp://tapgram.example', 'https://tapgram.example/app']) {
      expect(configError({ PUBLIC_ORIGIN: bad })).toMatch(/PUBLIC_ORIGIN/);
    }
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, and refuses true', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8 ,uniquelocal,2001:db8::1' }).TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', 'uniquelocal', '2001:db8::1']);
    // Trusting every hop lets any client choose its own address: refused, with the way out.
    for (const value of ['true', 'TRUE', 'yes']) {
      const message = configError({ TRUST_PROXY: value });
      expect(message).toMatch(/^Invalid configuration: TRUST_PROXY /);
      expect(message).toMatch(/number of proxies/);
    }
    const bad = configError({ TRUST_PROXY: 'loopback,proxy.internal' });
    expect(bad).toMatch(/TRUST_PROXY/);
    expect(bad).toMatch(/"proxy\.internal" is not an IP address/);
    expect(configError({ TRUST_PROXY: '-1' })).toMatch(/TRUST_PROXY/);
  });

  it('keeps images on local disk by default, and reads the S3 store from its variables', () => {
    const local = loadConfig({ S3_BUCKET: '', S3_ENDPOINT: '', S3_FORCE_PATH_STYLE: '' });
    expect(local.IMAGE_STORE).toBe('local');
    expect(local.S3_BUCKET).toBeUndefined();
    expect(local.S3_ENDPOINT).toBeUndefined();
    expect(local.S3_REGION).toBe('us-east-1');
    expect(local.S3_FORCE_PATH_STYLE).toBe(false);
    const s3 = loadConfig({
      IMAGE_STORE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'tapgram-images',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'tapgram',
      S3_SECRET_ACCESS_KEY: 'a-long-secret-key',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(s3).toMatchObject({
      IMAGE_STORE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'tapgram-images',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'tapgram',
      S3_SECRET_ACCESS_KEY: 'a-long-secret-key',
      S3_FORCE_PATH_STYLE: true,
    });
    // Without a key pair, the AWS SDK finds its own credentials (an instance or task role).
    const role = loadConfig({ IMAGE_STORE: 's3', S3_BUCKET: 'tapgram-images' });
    expect(role.S3_ACCESS_KEY_ID).toBeUndefined();
    expect(role.S3_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it('refuses IMAGE_STORE=s3 without a bucket, naming S3_BUCKET', () => {
    expect(configError({ IMAGE_STORE: 's3' })).toBe(
      'Invalid configuration: S3_BUCKET (unset): is required with IMAGE_STORE=s3: the bucket that holds the images',
    );
    expect(configError({ IMAGE_STORE: 's3', S3_BUCKET: ' ' })).toMatch(
      /^Invalid configuration: S3_BUCKET /,
    );
  });

  it('names each bad S3 variable', () => {
    expect(configError({ IMAGE_STORE: 'disk' })).toMatch(
      /^Invalid configuration: IMAGE_STORE "disk"/,
    );
    for (const bucket of ['Tapgram_Images', 'ab', '-tapgram', 'tapgram/images']) {
      expect(configError({ IMAGE_STORE: 's3', S3_BUCKET: bucket })).toMatch(
        /^Invalid configuration: S3_BUCKET .*: must be a bucket name/,
      );
    }
    expect(configError({ S3_ENDPOINT: 'minio:9000' })).toMatch(
      /^Invalid configuration: S3_ENDPOINT "minio:9000": must be a URL starting with http:\/\/ or https:\/\//,
    );
    expect(configError({ S3_FORCE_PATH_STYLE: 'yes' })).toMatch(
      /^Invalid configuration: S3_FORCE_PATH_STYLE "yes"/,
    );
  });

  it('wants both halves of the S3 key pair or neither, and never echoes the secret key', () => {
    const noSecret = configError({
      IMAGE_STORE: 's3',
      S3_BUCKET: 'images',
      S3_ACCESS_KEY_ID: 'id',
    });
    expect(noSecret).toMatch(
      /^Invalid configuration: S3_SECRET_ACCESS_KEY \(unset\): is required with S3_ACCESS_KEY_ID/,
    );
    const noId = configError({
      IMAGE_STORE: 's3',
      S3_BUCKET: 'images',
      S3_SECRET_ACCESS_KEY: 'hunter2-secret-key',
    });
    expect(noId).toMatch(
      /^Invalid configuration: S3_ACCESS_KEY_ID \(unset\): is required with S3_SECRET_ACCESS_KEY/,
    );
    expect(noId).not.toContain('hunter2');
    const bad = configError({
      IMAGE_STORE: 's3',
      S3_BUCKET: 'Bad_Bucket',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'hunter2-secret-key',
    });
    expect(bad).toMatch(/S3_BUCKET/);
    expect(bad).not.toContain('hunter2');
  });

  it('runs one worker by default, a count given, or one per core with auto', () => {
    expect(loadConfig({}).WEB_CONCURRENCY).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '' }).WEB_CONCURRENCY).toBe(1);
    const shared = {
      DATABASE_URL: 'postgres://db/tapgram',
      REDIS_URL: 'redis://cache:6379',
    };
    expect(loadConfig({ ...shared, WEB_CONCURRENCY: ' 4 ' }).WEB_CONCURRENCY).toBe(4);
    expect(loadConfig({ ...shared, WEB_CONCURRENCY: 'AUTO' }).WEB_CONCURRENCY).toBe(
      os.availableParallelism(),
    );
    for (const bad of ['0', '-2', '1.5', 'two', '257']) {
      expect(configError({ ...shared, WEB_CONCURRENCY: bad })).toMatch(
        /^Invalid configuration: WEB_CONCURRENCY .*: must be auto \(one worker per core\) or a whole number from 1 to 256$/,
      );
    }
  });

  it('refuses several workers without Redis or PostgreSQL, in one line saying what to set', () => {
    expect(configError({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://db/tapgram' })).toBe(
      "Invalid configuration: REDIS_URL (unset): is required with WEB_CONCURRENCY above 1 (2 workers): the workers share the game's counters, limits and pushes through Redis; set REDIS_URL, or WEB_CONCURRENCY=1",
    );
    expect(configError({ WEB_CONCURRENCY: '3', REDIS_URL: 'redis://cache:6379' })).toBe(
      'Invalid configuration: DATABASE_URL (unset): is required with WEB_CONCURRENCY above 1 (3 workers): the embedded Postgres opens in one process only; set a PostgreSQL URL, or WEB_CONCURRENCY=1',
    );
    const neither = configError({ WEB_CONCURRENCY: '2' });
    expect(neither).not.toContain('\n');
    expect(neither).toMatch(/REDIS_URL \(unset\): is required/);
    expect(neither).toMatch(/DATABASE_URL \(unset\): is required/);
    // One worker needs neither: `npm start` runs on Node alone.
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).WEB_CONCURRENCY).toBe(1);
  });

  it("is documented whole: every variable in the operations guide's table and in .env.example", () => {
    const root = path.dirname(REPO_DATA_DIR);
    const readme = fs.readFileSync(path.join(root, 'docs', 'OPERATIONS.md'), 'utf8');
    // The configuration table, not the tables of calls (`GET /users/...`) elsewhere.
    const table = readme.slice(readme.indexOf('\n## Configuration'));
    const configuration = table.slice(0, table.indexOf('\n## ', 1));
    const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const inTable = new Set(
      [...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]),
    );
    // Read by glibc as the process starts, not by the app: .env.example explains it, apart.
    const notTheApps = new Set(['MALLOC_ARENA_MAX']);
    const inExample = new Set(
      [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)]
        .map((m) => m[1])
        .filter((name) => !notTheApps.has(name)),
    );
    const variables = Object.keys(envSchema.shape).sort();
    expect([...inTable].sort()).toEqual(variables);
    expect([...inExample].sort()).toEqual(variables);
  });
});
