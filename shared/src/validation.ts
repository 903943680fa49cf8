import { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  CAPTION_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';

/** The exact texts a person reads when input is refused: the screens show them, the API answers them. */
export const messages = {
  usernameTooShort: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username must be 20 characters or less',
  usernameCharacters: 'Username can only contain letters, numbers, underscores, and hyphens',
  usernameTaken: 'Username already taken',
  usernameReserved: 'Usernames starting with wallet_ are reserved for wallet accounts',
  countryCode: 'Country must be a two-letter country code',
  fillAllFields: 'Please fill in all fields',
  bioTooLong: `Bio must be ${BIO_MAX_LENGTH} characters or less`,
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  passwordTooLong: `Password must be ${PASSWORD_MAX_LENGTH} characters or less`,
  captionRequired: 'Caption is required',
  captionTooLong: `Caption must be ${CAPTION_MAX_LENGTH} characters or less`,
  invalidCredentials: 'Invalid username or password',
  userNotFound: 'User not found',
  unstorableText: 'Text must not contain NUL characters or unpaired UTF-16 surrogates',
} as const;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * NUL, which PostgreSQL cannot store in text, and UTF-16 halves without their pair, which UTF-8
 * cannot carry (they would be stored as U+FFFD: another text than the one sent).
 */
export function hasUnstorableText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** Every string a client sends starts here, so that the rule holds for every field at once. */
export const text = () =>
  z.string().refine((value) => !hasUnstorableText(value), messages.unstorableText);

export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A username as the welcome dialog and the profile editor accept it: trimmed, 3 to 20, [A-Za-z0-9_-]. */
export const usernameSchema = text()
  .trim()
  .min(USERNAME_MIN_LENGTH, messages.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, messages.usernameTooLong)
  .regex(USERNAME_PATTERN, messages.usernameCharacters);

export const countryCodeSchema = text()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, messages.countryCode);

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

/** Checks a game username the way the welcome dialog does; null when valid. */
export function usernameError(raw: string): string | null {
  const result = usernameSchema.safeParse(raw);
  return result.success ? null : firstIssueMessage(result.error);
}
