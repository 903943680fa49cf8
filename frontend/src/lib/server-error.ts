import { ApiError } from './api';

/** The server's own words for a failed call, or `fallback` when the failure never reached it. */
export function serverError(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message || fallback : fallback;
}
