import { hasUnstorableText } from '@tapgram/shared';
import type { RequestHandler } from 'express';
import { ValidationError } from './errors';

export const BAD_URL =
  'The address is not valid: it has malformed percent-encoding or a NUL character';

/**
 * Whether a request's path and query are percent-encoded UTF-8 that decodes to text the database
 * can store. Path parameters reach the services without a schema, so the rule is checked once here
 * for every request, before any handler, rather than per route.
 */
export function isValidRequestUrl(url: string): boolean {
  try {
    return !hasUnstorableText(decodeURIComponent(url));
  } catch {
    // Malformed percent-encoding (%E0%A4%A), or bytes that are no UTF-8 (%FF, %ED%A0%80).
    return false;
  }
}

/** Refuses a request whose address is not valid with 400, whatever route it was for. */
export const rejectBadUrls: RequestHandler = (req, _res, next) => {
  if (!isValidRequestUrl(req.originalUrl)) throw new ValidationError(BAD_URL);
  next();
};
