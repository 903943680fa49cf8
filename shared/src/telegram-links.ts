/**
 * The longest init data a sign-in takes: Telegram's is well under 2 KB (a user, a chat, a start
 * parameter of at most 512 characters, two signatures).
 */
export const TELEGRAM_INIT_DATA_MAX_LENGTH = 8192;
/** How long a web player's link code opens the Mini App to be linked. */
export const TELEGRAM_LINK_CODE_MINUTES = 10;
/** A start parameter beginning with this carries a link code; any other is an invitation. */
export const TELEGRAM_LINK_START_PREFIX = 'link-';

/**
 * The Mini App's direct link with a start parameter (`https://t.me/<bot>/<app>?startapp=<value>`):
 * Telegram opens the Mini App with it in the signed init data (`start_param`).
 */
export function telegramStartLink(appUrl: string, startParam: string): string {
  return `${appUrl}?startapp=${encodeURIComponent(startParam)}`;
}
