import path from 'node:path';
import { z } from 'zod';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine(
      (value) => value === undefined || protocols.some((p) => value.startsWith(`${p}://`)),
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w-]{1,40}$/, 'must be 1 to 40 letters, digits, _ or -')
    .default('tapgram'),
  DATA_DIR: z.string().default('./data'),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  SOCIAL_URL: z.string().url().default('https://x.com/tapgram'),
  CHART_URL: z.string().url().default('https://dexscreener.com/solana'),
  CONTRACT_ADDRESS: z.string().default('TapGram1111111111111111111111111111111111111'),
  TAP_RATE_PER_SECOND: positiveInt(20),
  TAP_BURST: positiveInt(40),
  FLUSH_INTERVAL_MS: positiveInt(1000),
  MODERATION_QUEUE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
  MODERATION_HOLD_THRESHOLD: z.coerce.number().min(0).max(1).default(0.9),
  MODERATION_REPORTS_PER_HOUR: positiveInt(20),
  MODERATION_IMAGE_CHECK: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  isProduction: boolean;
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad variable fails start-up with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) =>
        `${issue.path.join('.')} ${JSON.stringify(env[String(issue.path[0])] ?? '')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.data;
  return {
    ...parsed,
    DATA_DIR: path.resolve(parsed.DATA_DIR),
    isProduction: parsed.NODE_ENV === 'production',
  };
}
