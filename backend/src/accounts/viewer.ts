import { messages } from '@tapgram/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UnauthorizedError } from '../core/errors';
import { clientAddress, networkKey } from '../core/network';
import { tokenOf, type SessionStore, type Viewer } from './sessions';

/**
 * Resolves who is asking into res.locals.viewer (null when nobody), once per request however many
 * routers it passes.
 */
export function resolveViewer(sessions: SessionStore): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.viewer === undefined) res.locals.viewer = await sessions.viewer(req);
    next();
  };
}

export function viewerOf(res: Response): Viewer | null {
  return (res.locals.viewer as Viewer | null | undefined) ?? null;
}

/**
 * The signed-in viewer, or 401. A session cookie that no longer resolves (the account is gone or
 * the session ended) says "User not found", which the client turns into "session expired".
 */
/** What a request of an account that no longer signs in hears (the client signs it out). */
export const ACCOUNT_GONE = `${messages.userNotFound}: please sign in again`;

export function requireViewer(req: Request, res: Response): Viewer {
  const viewer = viewerOf(res);
  if (viewer) return viewer;
  throw new UnauthorizedError(tokenOf(req) ? ACCOUNT_GONE : 'Not signed in');
}

/** Lets only signed-in viewers on: before an upload is read, so strangers never send one. */
export const signedInOnly: RequestHandler = (req, res, next) => {
  requireViewer(req, res);
  next();
};

/**
 * Who viewed, for the once-per-hour view count: the signed-in user, or else the network the
 * request came from, hashed with the cookie secret (no address is stored). Not a cookie: one that
 * the server hands out on request could be dropped or collected to count views again.
 */
export function viewKey(req: Request, res: Response): string {
  const viewer = viewerOf(res);
  if (viewer) return `u:${viewer.id}`;
  return `ip:${networkKey(clientAddress(req), req.secret ?? 'views')}`;
}
