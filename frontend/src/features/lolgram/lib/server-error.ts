import { errorMessage } from '../../../lib/api';

/** The server's own words for a failed call, or `fallback` when the failure never reached it. */
export function serverError(error: unknown, fallback: string): string {
  if (!(error instanceof Error) || !/^\d{3}: /.test(error.message)) return fallback;
  return errorMessage(error) || fallback;
}
