import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, usernameError } from '@tapgram/shared';
import type { TelegramLaunch } from './init-data';

/** The name a Telegram user plays under when neither their username nor their name fits. */
const FALLBACK_NAME = 'player';
/** Numbered names tried after the plain one, before random ones. */
const NUMBERED = 8;

/**
 * The name a Telegram user's game player starts from, within the game's rules (3 to 20 letters,
 * digits, _ or -): their Telegram username, else their first name with accents dropped and spaces
 * made underscores, else "player".
 */
export function baseUsername({
  username,
  firstName,
}: Pick<TelegramLaunch, 'username' | 'firstName'>): string {
  for (const source of [username, firstName]) {
    if (!source) continue;
    const name = source
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/\s+/g, '_')
      .replace(/[^A-Za-z0-9_-]/g, '')
      .replace(/_{2,}/g, '_')
      .replace(/^[_-]+|[_-]+$/g, '')
      .slice(0, USERNAME_MAX_LENGTH);
    if (name.length >= USERNAME_MIN_LENGTH && usernameError(name) === null) return name;
  }
  return FALLBACK_NAME;
}

/** `base` with a suffix, cut so that the whole stays within the length limit. */
function withSuffix(base: string, suffix: string): string {
  return base.slice(0, USERNAME_MAX_LENGTH - suffix.length) + suffix;
}

/**
 * The names to try, in order, when another player may already hold some (names are unique
 * ignoring case): the base, the base numbered 2 to 9, then the base with random numbers, longer
 * ones last, so that a crowd of "player"s still finds a free name at once.
 */
export function usernameCandidates(base: string, random: () => number = Math.random): string[] {
  const names = [base];
  for (let n = 2; n < 2 + NUMBERED; n += 1) names.push(withSuffix(base, `_${n}`));
  for (const digits of [4, 4, 6, 6, 8, 8]) {
    const number = Math.floor(random() * 10 ** digits)
      .toString()
      .padStart(digits, '0');
    names.push(withSuffix(base, `_${number}`));
  }
  return names;
}
