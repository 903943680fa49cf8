import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import {
  DEFAULT_COUNTRY_CHANGE_DAYS,
  DEFAULT_REFERRAL_RULES,
  DEFAULT_STREAK_RULES,
  DEFAULT_TAP_ALLOWANCE,
} from '@tapgram/shared';

/**
 * The repository's `data` directory: `npm start` (cwd backend/) and `npm run admin` (cwd the
 * repository root) must open the same database, so the default cannot follow the cwd.
 */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../data', import.meta.url));

/** Variables whose value an error message must never show. */
const SECRET_VARIABLES = new Set([
  'SESSION_SECRET',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
  'TELEGRAM_BOT_TOKEN',
]);

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .refine(
      (value) => value === undefined || protocols.some((p) => value.startsWith(`${p}://`)),
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );

/** The site's public origin (scheme, host, port), normalised: https://TapGram.example/ -> https://tapgram.example. */
const originSchema = z.string().transform((value, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const bare =
    url &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    !url.username &&
    !url.password &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash;
  if (!url || !bare) {
    ctx.addIssue({
      code: 'custom',
      message:
        "must be the site's public origin, http(s)://host[:port] with no path, like https://tapgram.example",
    });
    return z.NEVER;
  }
  return url.origin;
});

const TRUST_EVERY_HOP =
  'trusting every X-Forwarded-For hop would let any client choose its own address: set the number of proxies in front of the app (1 for one reverse proxy), or their addresses';

/**
 * Which proxies may name the client, as Express's `trust proxy` takes it: false, a hop count, or
 * addresses, CIDR ranges and the names loopback, linklocal and uniquelocal.
 */
const trustProxySchema = z.string().transform((raw, ctx): false | number | string[] => {
  const value = raw.trim();
  if (value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value) > 0 ? Number(value) : false;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      const message = /^(true|yes|on)$/i.test(entry)
        ? TRUST_EVERY_HOP
        : `${JSON.stringify(entry)} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal; use false, a number of proxies, or a comma-separated list of those`;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  }
  return entries.length > 0 ? entries : false;
});

const DURATION_MESSAGE =
  'must be a length of time: a whole number and a unit, s, m, h, d or w, like 7d or 90m';
const DURATION_UNITS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "7d", "12h", "90m", "30s", "1w": milliseconds. */
const durationSchema = z.string().transform((raw, ctx): number => {
  const match = /^(\d+)\s*([smhdw])$/.exec(raw.trim().toLowerCase());
  const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]] : 0;
  if (ms > 0 && Number.isSafeInteger(ms)) return ms;
  ctx.addIssue({ code: 'custom', message: DURATION_MESSAGE });
  return z.NEVER;
});

/** An instant in UTC (ISO 8601, with its Z or offset), as epoch milliseconds. */
const instantSchema = z.string().transform((raw, ctx): number => {
  const value = raw.trim();
  const ms = /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isFinite(ms)) return ms;
  ctx.addIssue({
    code: 'custom',
    message: 'must be an instant with its time zone, like 2024-01-01T00:00:00Z',
  });
  return z.NEVER;
});

const wholeAboveZero = () =>
  z.coerce
    .number({ error: 'must be a whole number above 0' })
    .int('must be a whole number above 0')
    .positive('must be a whole number above 0');
const positiveInt = (fallback: number) => wholeAboveZero().default(fallback);
const portNumber = () =>
  z.coerce
    .number({ error: 'must be a port number, 0 to 65535' })
    .int('must be a port number, 0 to 65535')
    .min(0, 'must be a port number, 0 to 65535')
    .max(65_535, 'must be a port number, 0 to 65535');

/** More workers than this is a typo, not a machine. */
const MAX_WORKERS = 256;
const WORKERS_MESSAGE = `must be auto (one worker per core) or a whole number from 1 to ${MAX_WORKERS}`;

/** Backend worker processes on this machine: a count, or `auto` for one per core. */
const workersSchema = z.string().transform((raw, ctx): number => {
  const value = raw.trim().toLowerCase();
  if (value === 'auto') return Math.min(os.availableParallelism(), MAX_WORKERS);
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (count >= 1 && count <= MAX_WORKERS) return count;
  ctx.addIssue({ code: 'custom', message: WORKERS_MESSAGE });
  return z.NEVER;
});

/** What an Authorization: Bearer header can carry (RFC 6750), and long enough not to be guessed. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]{16,}=*$/;

/** A bot token as BotFather gives it: the bot's id, a colon, 35 letters, digits, _ or -. */
const TELEGRAM_BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,64}$/;
/** A Mini App's direct link as BotFather gives it: https://t.me/<bot username>/<app short name>. */
const TELEGRAM_APP_URL = /^https:\/\/t\.me\/[A-Za-z][A-Za-z0-9_]{4,31}\/[A-Za-z0-9_]{3,30}$/;

/** S3's bucket naming rules, so that a typo fails at start rather than at the first upload. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The suspicion rules, in the order the reasons are given. */
export const SUSPICION_RULES = ['refused', 'streak', 'cadence', 'network'] as const;
export type SuspicionRule = (typeof SUSPICION_RULES)[number];
const DEFAULT_SUSPICION_WEIGHTS_TEXT = 'refused=35,streak=30,cadence=40,network=25';

/** "refused=35,streak=30,cadence=40,network=25": every rule, a weight from 0 to 100 each. */
const suspicionWeightsSchema = z.string().transform((raw, ctx) => {
  const weights: Partial<Record<SuspicionRule, number>> = {};
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((piece) => piece.trim());
    const weight = /^\d+$/.test(value ?? '') ? Number(value) : Number.NaN;
    if (!(SUSPICION_RULES as readonly string[]).includes(name) || !(weight <= 100)) {
      ctx.addIssue({
        code: 'custom',
        message: `must list ${SUSPICION_RULES.join(', ')} as name=weight (0 to 100), like ${DEFAULT_SUSPICION_WEIGHTS_TEXT}`,
      });
      return z.NEVER;
    }
    weights[name as SuspicionRule] = weight;
  }
  const missing = SUSPICION_RULES.filter((rule) => weights[rule] === undefined);
  if (missing.length > 0) {
    ctx.addIssue({ code: 'custom', message: `is missing ${missing.join(', ')}` });
    return z.NEVER;
  }
  return weights as Record<SuspicionRule, number>;
});

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: portNumber().default(3000),
    /** Worker processes behind PORT (Node's cluster module); above 1 needs Redis and PostgreSQL. */
    WEB_CONCURRENCY: workersSchema.default(1),
    DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
    REDIS_URL: optionalUrl(['redis', 'rediss']),
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w-]{1,40}$/, 'must be 1 to 40 letters, digits, _ or -')
      .default('tapgram'),
    // An explicit relative DATA_DIR stays relative to the cwd, as a command-line path would.
    DATA_DIR: z
      .string()
      .default(DEFAULT_DATA_DIR)
      .transform((dir) => path.resolve(dir)),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ADMIN_USERNAMES: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean),
      ),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Names the site in wallet sign-in messages; unset, only a loopback Host may sign in. */
    PUBLIC_ORIGIN: originSchema.optional(),
    TRUST_PROXY: trustProxySchema.default(false),
    SOCIAL_URL: z.string().url().default('https://x.com/tapgram'),
    CHART_URL: z.string().url().default('https://dexscreener.com/solana'),
    CONTRACT_ADDRESS: z.string().default('TapGram1111111111111111111111111111111111111'),
    TAP_RATE_PER_SECOND: positiveInt(DEFAULT_TAP_ALLOWANCE.perSecond),
    TAP_BURST: positiveInt(DEFAULT_TAP_ALLOWANCE.burst),
    FLUSH_INTERVAL_MS: positiveInt(1000),
    /** Taps that make a UTC day count for the daily streak. */
    STREAK_DAILY_TAPS: positiveInt(DEFAULT_STREAK_RULES.dailyTaps),
    /** Points of the daily check-in bonus per day of the streak, and the most one gives. */
    STREAK_BONUS_BASE: positiveInt(DEFAULT_STREAK_RULES.bonusBase),
    STREAK_BONUS_CAP: positiveInt(DEFAULT_STREAK_RULES.bonusCap),
    /** Taps an invited player makes, over REFERRAL_DAYS distinct UTC days, for the referral bonus. */
    REFERRAL_TAPS: positiveInt(DEFAULT_REFERRAL_RULES.taps),
    REFERRAL_DAYS: positiveInt(DEFAULT_REFERRAL_RULES.days),
    /** Referral bonuses an inviter is paid per UTC day; the rest wait for a later day. */
    REFERRAL_DAILY_CAP: positiveInt(DEFAULT_REFERRAL_RULES.dailyCap),
    /** Points each side of an invitation is paid. */
    REFERRAL_BONUS: positiveInt(DEFAULT_REFERRAL_RULES.bonus),
    /** How often each process looks for invitations whose bonus is due. */
    REFERRAL_CHECK_MS: positiveInt(5000),
    /** Days a player waits between two changes of their country (0: no wait). */
    COUNTRY_CHANGE_DAYS: z.coerce
      .number()
      .int()
      .min(0)
      .max(3650)
      .default(DEFAULT_COUNTRY_CHANGE_DAYS),
    /** How long a season lasts: a week unless set. */
    SEASON_LENGTH: durationSchema.prefault('7d'),
    /** When season 1 started: a Monday at midnight UTC unless set; seasons follow on from it. */
    SEASON_START: instantSchema.prefault('2024-01-01T00:00:00Z'),
    /**
     * The time a client has to send a whole request (http-server.ts). The largest is a 10 MB
     * image: 60 s lets it through at about 1.4 Mbit/s, a weak 3G link; a game request is under a
     * kilobyte.
     */
    REQUEST_TIMEOUT_SECONDS: positiveInt(60),
    /**
     * How often the server pings an idle game or live channel (Socket.IO's pingInterval): a
     * long-poll is held open up to this long, and a dead connection is noticed within it and the
     * 20 s a pong may take. Lower it behind a proxy that drops connections idle for less.
     */
    // At most 5 minutes: far above any proxy's idle limit, and well inside a timer's range.
    CHANNEL_PING_SECONDS: wholeAboveZero().max(300, 'must be at most 300').default(25),
    /** Off: taps record no suspicion signals (the operators' lists show none). */
    SUSPICION_SIGNALS: z
      .enum(['on', 'off'])
      .default('on')
      .transform((value) => value === 'on'),
    /** The days of signals a suspicion score looks at, today included. */
    SUSPICION_DAYS: z.coerce.number().int().min(1).max(60).default(7),
    /** A gap between batches longer than this ends a streak of play. */
    SUSPICION_PAUSE_SECONDS: positiveInt(120),
    /** Rule: taps refused by the rate cap in one day. */
    SUSPICION_REFUSED_TAPS: positiveInt(300),
    /** Rule: minutes of play without a pause. */
    SUSPICION_STREAK_MINUTES: positiveInt(240),
    /** Rule: batch sizes and intervals both vary less than this (deviation / mean) in a day... */
    SUSPICION_EVEN_CADENCE: z.coerce.number().min(0).max(1).default(0.05),
    /** ...over at least this many batches. */
    SUSPICION_MIN_BATCHES: positiveInt(30),
    /** Rule: players created from one network. */
    SUSPICION_NETWORK_PLAYERS: positiveInt(10),
    /** What each rule adds to the score (0 to 100, capped at 100); 0 turns a rule off. */
    SUSPICION_WEIGHTS: suspicionWeightsSchema.prefault(DEFAULT_SUSPICION_WEIGHTS_TEXT),
    MODERATION_QUEUE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
    MODERATION_HOLD_THRESHOLD: z.coerce.number().min(0).max(1).default(0.9),
    MODERATION_REPORTS_PER_HOUR: positiveInt(20),
    /** Unset: the accounts module's own limit (accounts/limits.ts). */
    SIGNUPS_PER_HOUR: wholeAboveZero().optional(),
    /** Days the username of a deleted account stays taken before anyone may have it; 0: at once. */
    DELETED_USERNAME_HOLD_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    /** Unset: the images module's own limit (images/limits.ts). */
    UPLOADS_PER_HOUR: wholeAboveZero().optional(),
    /** Unset: LOLGram's own limits (lolgram/comments/limits.ts). */
    COMMENTS_PER_MINUTE: wholeAboveZero().optional(),
    COMMENTS_PER_POST_PER_MINUTE: wholeAboveZero().optional(),
    // New game sockets per client address, counted across every process through Redis. Many
    // real players share one address (a carrier's NAT, an event venue's Wi-Fi, whose whole crowd
    // reconnects at once after a restart), so the defaults are generous: 500 at once, then 500
    // every ten seconds (3,000 a minute), which brings a crowd of 2,000 back within half a minute,
    // while one machine can no longer open hundreds a second. A refused client retries by itself.
    NEW_SOCKETS_PER_MINUTE: positiveInt(3000),
    NEW_SOCKETS_BURST: positiveInt(500),
    /** Game sockets one client address may hold open on each process: a venue's crowd fits. */
    SOCKETS_PER_ADDRESS: positiveInt(2000),
    // Admission control, per process: beyond these, new work is refused 503 with Retry-After at
    // once instead of queued (see core/admission.ts).
    /** New game sockets a second (and at once), from every address together. */
    ADMIT_NEW_SOCKETS_PER_SECOND: positiveInt(500),
    /** Tap batches waiting for the store at once; the next is refused. */
    ADMIT_TAPS_WAITING: positiveInt(2000),
    /** The longest (ms) the batches waiting may take the store at its pace; the next is refused. */
    ADMIT_TAP_WAIT_MS: positiveInt(500),
    /** Event-loop lag (ms) above which new sockets and taps are refused. */
    ADMIT_EVENT_LOOP_LAG_MS: positiveInt(200),
    ADMIT_RETRY_AFTER_SECONDS: positiveInt(2),
    MODERATION_IMAGE_CHECK: z
      .enum(['on', 'off'])
      .default('on')
      .transform((value) => value === 'on'),
    /**
     * How long a node has to deliver a recorded domain event (a notification, a push, a check)
     * before another node takes it over: the longest a crashed node's events wait, and the first
     * wait before the retry of a failed handler.
     */
    EVENTS_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** `off`: no notifications are written or pushed (the calls answer what is stored). */
    NOTIFICATIONS: z
      .enum(['on', 'off'])
      .default('on')
      .transform((value) => value === 'on'),
    /** Where images live: local disk under DATA_DIR/images, or an S3-compatible bucket. */
    IMAGE_STORE: z.enum(['local', 's3']).default('local'),
    /** Unset: AWS S3 itself; MinIO and other S3-compatible servers give their address. */
    S3_ENDPOINT: optionalUrl(['http', 'https']),
    S3_BUCKET: z
      .string()
      .regex(BUCKET_NAME, 'must be a bucket name: 3 to 63 lowercase letters, digits, dots or -')
      .optional(),
    S3_REGION: z.string().default('us-east-1'),
    /** Both or neither; neither: the AWS SDK's own credentials (an instance or task role). */
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** MinIO and most local servers want bucket/key paths rather than bucket.host names. */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Set: GET /metrics answers only requests that carry it as a bearer token. */
    METRICS_TOKEN: z
      .string()
      .regex(
        BEARER_TOKEN,
        'must be at least 16 letters, digits or - . _ ~ + / (a bearer token, like the output of `openssl rand -hex 32`)',
      )
      .optional(),
    /** Set: the metrics are served on this port of their own (on METRICS_HOST), not on PORT. */
    METRICS_PORT: portNumber().optional(),
    /**
     * The interface of METRICS_PORT: loopback unless opened on purpose (a scraper in another
     * container), since that port answers without a token unless METRICS_TOKEN is set.
     */
    METRICS_HOST: z.string().default('127.0.0.1'),
    /** Set: the game signs players in from Telegram (the Mini App); unset, that endpoint is 404. */
    TELEGRAM_BOT_TOKEN: z
      .string()
      .trim()
      .regex(
        TELEGRAM_BOT_TOKEN,
        'must be the bot token BotFather gave, like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
      )
      .optional(),
    /** The Mini App's link, for invitations shared from Telegram and link codes. */
    TELEGRAM_APP_URL: z
      .string()
      .trim()
      .transform((value) => value.replace(/\/+$/, ''))
      .pipe(
        z
          .string()
          .regex(
            TELEGRAM_APP_URL,
            'must be the Mini App link BotFather gave, like https://t.me/TapGramBot/play',
          ),
      )
      .optional(),
    /** How long after Telegram made it the init data of a launch still signs in. */
    TELEGRAM_AUTH_TTL_SECONDS: positiveInt(3600),
  })
  .superRefine((env, ctx) => {
    if (env.WEB_CONCURRENCY > 1) {
      const workers = `WEB_CONCURRENCY above 1 (${env.WEB_CONCURRENCY} workers)`;
      if (!env.REDIS_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['REDIS_URL'],
          message: `is required with ${workers}: the workers share the game's counters, limits and pushes through Redis; set REDIS_URL, or WEB_CONCURRENCY=1`,
        });
      }
      if (!env.DATABASE_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['DATABASE_URL'],
          message: `is required with ${workers}: the embedded Postgres opens in one process only; set a PostgreSQL URL, or WEB_CONCURRENCY=1`,
        });
      }
    }
    if (env.IMAGE_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required with IMAGE_STORE=s3: the bucket that holds the images',
      });
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const [missing, given] =
        env.S3_ACCESS_KEY_ID === undefined
          ? ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']
          : ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'];
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `is required with ${given}: give both, or neither for the AWS SDK's own credentials`,
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: `must differ from PORT (${env.PORT}): the metrics get a port of their own; to serve them on PORT, leave METRICS_PORT unset and set METRICS_TOKEN`,
      });
    }
    if (env.NEW_SOCKETS_BURST * 60 < env.NEW_SOCKETS_PER_MINUTE) {
      ctx.addIssue({
        code: 'custom',
        path: ['NEW_SOCKETS_BURST'],
        message: `must be at least a second's worth of NEW_SOCKETS_PER_MINUTE (${Math.ceil(env.NEW_SOCKETS_PER_MINUTE / 60)}): new sockets are counted in windows of a second or more`,
      });
    }
    if (env.SEASON_START > Date.now()) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEASON_START'],
        message:
          'must not be in the future: season 1 starts there, and play before it has no season',
      });
    }
    if (env.TELEGRAM_BOT_TOKEN && !env.TELEGRAM_APP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['TELEGRAM_APP_URL'],
        message:
          'is required with TELEGRAM_BOT_TOKEN: the Mini App link BotFather gave (/newapp), like https://t.me/TapGramBot/play',
      });
    }
    if (
      env.TELEGRAM_BOT_TOKEN &&
      env.NODE_ENV === 'production' &&
      !env.PUBLIC_ORIGIN?.startsWith('https://')
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_ORIGIN'],
        message:
          'must be the https origin the Mini App is served from with TELEGRAM_BOT_TOKEN: Telegram opens Mini Apps over https only',
      });
    }
    if (env.MODERATION_HOLD_THRESHOLD < env.MODERATION_QUEUE_THRESHOLD) {
      ctx.addIssue({
        code: 'custom',
        path: ['MODERATION_HOLD_THRESHOLD'],
        message: `must be at least MODERATION_QUEUE_THRESHOLD (${env.MODERATION_QUEUE_THRESHOLD}): a held post is also queued`,
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  isProduction: boolean;
}

export class ConfigError extends Error {}

/** Hides a URL's password (scheme://user:password@host) before a value is shown. */
const maskPassword = (value: string) =>
  value.replace(/^([a-z][a-z\d+.-]*:\/\/[^:@/]*):.*@/i, '$1:***@');

function shown(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if (SECRET_VARIABLES.has(name)) return '(value hidden)';
  return JSON.stringify(maskPassword(value));
}

/**
 * Parses the environment once; a bad variable fails start-up with a message naming it. An empty
 * or blank value means unset (docker compose passes `VAR=` for an unset `${VAR:-}`).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = envSchema.safeParse(given);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${issue.path.join('.')} ${shown(name, given[name])}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return { ...result.data, isProduction: result.data.NODE_ENV === 'production' };
}
