import { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  CAPTION_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';
import { isCountryCode } from './countries';
import { hasUnstorableText, messages } from './messages';
import { USERNAME_PATTERN } from './username';

// The rules that need no schema library live apart, so that a screen checking a username does not
// load zod (the game's pages stay light).
export { hasUnstorableText, messages } from './messages';
export { USERNAME_PATTERN, usernameError } from './username';

/** Every string a client sends starts here, so that the rule holds for every field at once. */
export const text = () =>
  z.string().refine((value) => !hasUnstorableText(value), messages.unstorableText);

/** A username as the welcome dialog and the profile editor accept it: trimmed, 3 to 20, [A-Za-z0-9_-]. */
export const usernameSchema = text()
  .trim()
  .min(USERNAME_MIN_LENGTH, messages.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, messages.usernameTooLong)
  .regex(USERNAME_PATTERN, messages.usernameCharacters);

/** A country's two-letter code, in either case: one of COUNTRY_CODES, stored in upper case. */
export const countryCodeSchema = text()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, messages.countryCode)
  .refine(isCountryCode, messages.unknownCountry);

export const bioSchema = text().max(BIO_MAX_LENGTH, messages.bioTooLong);

export const newPasswordSchema = text()
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

export const captionSchema = text()
  .trim()
  .min(1, messages.captionRequired)
  .max(CAPTION_MAX_LENGTH, messages.captionTooLong);

/** The first message of a failed parse: what a user is shown, and what the API answers. */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  // Zod's own wording ("Invalid input: expected string...") needs the field's name to be useful.
  const generic = /^(Invalid|Too (small|big))/.test(issue.message);
  return generic && issue.path.length > 0
    ? `${issue.path.join('.')}: ${issue.message}`
    : issue.message;
}
