import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from './constants';
import { hasUnstorableText, messages } from './messages';

export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * Checks a game username the way the welcome dialog does, by the rules of `usernameSchema`
 * (trimmed, 3 to 20, [A-Za-z0-9_-]) and with its first message; null when valid.
 */
export function usernameError(raw: string): string | null {
  if (hasUnstorableText(raw)) return messages.unstorableText;
  const name = raw.trim();
  // Lengths in code points, as zod counts them: an emoji is one character, not two.
  const length = [...name].length;
  if (length < USERNAME_MIN_LENGTH) return messages.usernameTooShort;
  if (length > USERNAME_MAX_LENGTH) return messages.usernameTooLong;
  if (!USERNAME_PATTERN.test(name)) return messages.usernameCharacters;
  return null;
}
