import {
  BIO_MAX_LENGTH,
  CAPTION_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './constants';

/** The exact texts a person reads when input is refused: the screens show them, the API answers them. */
export const messages = {
  usernameTooShort: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username must be 20 characters or less',
  usernameCharacters: 'Username can only contain letters, numbers, underscores, and hyphens',
  usernameTaken: 'Username already taken',
  usernameReserved: 'Usernames starting with wallet_ are reserved for wallet accounts',
  countryCode: 'Country must be a two-letter country code',
  unknownCountry: 'Country must be one of the countries of the list',
  fillAllFields: 'Please fill in all fields',
  bioTooLong: `Bio must be ${BIO_MAX_LENGTH} characters or less`,
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  passwordTooLong: `Password must be ${PASSWORD_MAX_LENGTH} characters or less`,
  captionRequired: 'Caption is required',
  captionTooLong: `Caption must be ${CAPTION_MAX_LENGTH} characters or less`,
  invalidCredentials: 'Invalid username or password',
  userNotFound: 'User not found',
  // One wording whoever blocked whom: it says the action is refused, and not why.
  cannotFollow: "You can't follow this account",
  cannotLol: "You can't LOL this post",
  playerFrozen: 'This player is frozen',
  freezeReasonRequired: 'Give a reason',
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
