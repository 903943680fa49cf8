import {
  isAuthDateInvalidError,
  isSignatureInvalidError,
  isSignatureMissingError,
  validate,
} from '@telegram-apps/init-data-node';
import { z } from 'zod';
import { UnauthorizedError } from '../../core/errors';

/** Who launched the Mini App, as Telegram signed it. */
export interface TelegramLaunch {
  telegramId: number;
  /** The Telegram username (5 to 32 letters, digits or _), when the user has one. */
  username?: string;
  firstName: string;
  lastName?: string;
  /** The `startapp` value of the link that opened the Mini App, if any. */
  startParam?: string;
  authDate: Date;
}

export interface InitDataRules {
  botToken: string;
  /** How long after Telegram made them the data sign in; 0: any age (only for tests of old data). */
  maxAgeSeconds: number;
  now: () => number;
}

export const initDataErrors = {
  notSigned: 'Telegram sign-in data is not signed (no hash)',
  badSignature: "Telegram sign-in data is not signed by this game's bot",
  noAuthDate: 'Telegram sign-in data has no valid auth_date',
  expired: 'Telegram sign-in data has expired: open the game from Telegram again',
  duplicated: (field: string) => `Telegram sign-in data repeats the field "${field}"`,
  noUser: 'Telegram sign-in data names no user',
} as const;

// Telegram's user object: only what the game reads, the rest passes (it grows over time).
const telegramUserSchema = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  first_name: z.string().max(256),
  last_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
});

/**
 * Checks init data the way Telegram documents (an HMAC-SHA-256 of its sorted fields, keyed by the
 * bot token) and its age, and reads the launching user; anything else is a 401 that says what was
 * wrong. A field given twice is refused before the signature is even looked at: which copy the
 * signature covered would otherwise depend on the parser.
 */
export function verifyInitData(raw: string, rules: InitDataRules): TelegramLaunch {
  const params = new URLSearchParams(raw);
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key)) throw new UnauthorizedError(initDataErrors.duplicated(key));
    seen.add(key);
  }
  try {
    // The age is checked below, against the app's clock.
    validate(params, rules.botToken, { expiresIn: 0 });
  } catch (error) {
    if (isSignatureMissingError(error)) throw new UnauthorizedError(initDataErrors.notSigned);
    if (isAuthDateInvalidError(error)) throw new UnauthorizedError(initDataErrors.noAuthDate);
    if (isSignatureInvalidError(error)) throw new UnauthorizedError(initDataErrors.badSignature);
    throw error;
  }
  const authSeconds = Number(params.get('auth_date'));
  if (!Number.isSafeInteger(authSeconds) || authSeconds <= 0) {
    throw new UnauthorizedError(initDataErrors.noAuthDate);
  }
  const authDate = new Date(authSeconds * 1000);
  if (rules.maxAgeSeconds > 0 && rules.now() - authDate.getTime() > rules.maxAgeSeconds * 1000) {
    throw new UnauthorizedError(initDataErrors.expired);
  }
  const user = parseUser(params.get('user'));
  const startParam = params.get('start_param') || undefined;
  return {
    telegramId: user.id,
    firstName: user.first_name,
    ...(user.last_name ? { lastName: user.last_name } : {}),
    ...(user.username ? { username: user.username } : {}),
    ...(startParam ? { startParam } : {}),
    authDate,
  };
}

function parseUser(json: string | null): z.infer<typeof telegramUserSchema> {
  if (json === null) throw new UnauthorizedError(initDataErrors.noUser);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UnauthorizedError(initDataErrors.noUser);
  }
  const user = telegramUserSchema.safeParse(value);
  if (!user.success) throw new UnauthorizedError(initDataErrors.noUser);
  return user.data;
}
