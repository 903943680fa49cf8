import type {
  Sent,
  TelegramLinkCode,
  TelegramLinkStatus,
  TelegramSessionAnswer,
  TelegramSessionBody,
} from '@tapgram/shared';
import { apiRequest } from '../../lib/api';

/**
 * POST /api/telegram/session: signs this launch in as its Telegram user's player (the answer sets
 * the player cookie), or answers the name a first launch will play under and asks for a country.
 */
export async function telegramSession(
  initData: string,
  country?: string,
): Promise<TelegramSessionAnswer> {
  const body: Sent<TelegramSessionBody> =
    country === undefined ? { initData } : { initData, country };
  const res = await apiRequest('POST', '/api/telegram/session', body);
  return (await res.json()) as TelegramSessionAnswer;
}

/** A short-lived code that opens the Mini App as this web player (POST /api/telegram/link-codes). */
export async function createTelegramLinkCode(): Promise<TelegramLinkCode> {
  const res = await apiRequest('POST', '/api/telegram/link-codes');
  return (await res.json()) as TelegramLinkCode;
}

/** Whether this web player already opens in Telegram (GET /api/telegram/link). */
export async function fetchTelegramLinked(): Promise<boolean> {
  const res = await apiRequest('GET', '/api/telegram/link');
  return ((await res.json()) as TelegramLinkStatus).linked;
}
