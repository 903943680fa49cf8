import { sign } from '@telegram-apps/init-data-node';

/** A bot token of the tests' own: init data signed with it signs in on a server given it. */
export const TEST_BOT_TOKEN = '1234567890:TEST-token-for-tapgram-tests_0123456789';
export const TEST_TELEGRAM_APP_URL = 'https://t.me/TapGramTestBot/play';

/** The environment of a server that signs players in from Telegram with the tests' bot. */
export const telegramEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
  TELEGRAM_APP_URL: TEST_TELEGRAM_APP_URL,
  ...extra,
});

export interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

let nextId = 700_000_000 + Math.floor(Math.random() * 100_000_000);

/** A Telegram user with an id no other test uses. */
export function makeTelegramUser(fields: Partial<TelegramUser> = {}): TelegramUser {
  nextId += 1;
  return { id: nextId, first_name: 'Tess', language_code: 'en', ...fields };
}

/**
 * Init data as Telegram makes it for a launch of the Mini App by `user` (`start_param`: the link's
 * startapp value), signed with `token` at `authDate`.
 */
export function signInitData(
  user: TelegramUser,
  {
    startParam,
    authDate = new Date(),
    token = TEST_BOT_TOKEN,
  }: { startParam?: string; authDate?: Date; token?: string } = {},
): string {
  return sign(
    {
      user,
      chat_instance: '-4242424242424242424',
      chat_type: 'sender',
      ...(startParam ? { start_param: startParam } : {}),
    },
    token,
    authDate,
  );
}
