import type { GameUser, TelegramLinkOutcome } from '@tapgram/shared';
import { toast } from '../../hooks/use-toast';
import { ApiError, errorMessage } from '../../lib/api';
import { telegramInitData } from './launch';
import { telegramSession } from './telegram-api';

/** What a Mini App launch's sign-in came to. */
export type TelegramOutcome =
  | { kind: 'signed-in'; user: GameUser }
  /** A first launch: the player will be `username` once they choose a country. */
  | { kind: 'needs-country'; username: string }
  /** The server refused the launch's data for certain (expired, not signed by the game's bot). */
  | { kind: 'refused'; message: string };

let signingIn: Promise<TelegramOutcome> | null = null;

/** A launch from a web player's link code: whether this Telegram account now opens that player. */
function toldOfLink(link: TelegramLinkOutcome): void {
  toast(
    link.ok
      ? { title: 'Linked', description: 'This Telegram account now opens your web player.' }
      : { title: 'Not linked', description: link.error, variant: 'destructive' },
  );
}

async function signIn(initData: string): Promise<TelegramOutcome> {
  try {
    const answer = await telegramSession(initData);
    if (answer.link) toldOfLink(answer.link);
    return answer.status === 'signed-in'
      ? { kind: 'signed-in', user: answer.user }
      : { kind: 'needs-country', username: answer.username };
  } catch (error) {
    // 401: the data is not good (expired, another bot's); 404: the server has no Telegram bot.
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) {
      return { kind: 'refused', message: errorMessage(error) };
    }
    throw error;
  }
}

/**
 * Signs this Mini App launch in, once per page: the answer sets the player cookie. A failure to
 * reach the server rejects, and the next call asks again.
 */
export function telegramSignIn(): Promise<TelegramOutcome> | null {
  const initData = telegramInitData();
  if (!initData) return null;
  if (!signingIn) {
    signingIn = signIn(initData);
    signingIn.catch(() => {
      signingIn = null;
    });
  }
  return signingIn;
}

/** A first launch's player, made with the country they chose. */
export async function createTelegramPlayer(country: string): Promise<GameUser> {
  const initData = telegramInitData();
  if (!initData) throw new Error('Not opened from Telegram');
  const answer = await telegramSession(initData, country);
  if (answer.status !== 'signed-in') throw new Error('Choose a country to start playing');
  signingIn = Promise.resolve({ kind: 'signed-in', user: answer.user });
  return answer.user;
}
