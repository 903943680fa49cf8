import type { RequestHandler, Response } from 'express';
import { ForbiddenError, UnauthorizedError } from '../core/errors';
import type { Viewer } from './sessions';

/** The admin a request was let through for, set by the admin-only guard. */
export interface Admin {
  id: string;
  username: string;
}

/** The role column alone: a username can be changed by its owner, so it proves nothing. */
export function isAdmin(viewer: Viewer): boolean {
  return viewer.role === 'admin';
}

/** The one admin check of every admin call: 401 for nobody, 403 for a user who is not an admin. */
export function requireAdmin(viewer: Viewer | null): Viewer {
  if (!viewer) throw new UnauthorizedError('Not signed in');
  if (!isAdmin(viewer)) throw new ForbiddenError('Admins only');
  return viewer;
}

/** After the viewer is resolved: lets only admins through, with the admin in `adminOf(res)`. */
export const admitAdmins: RequestHandler = (_req, res, next) => {
  const { id, username } = requireAdmin((res.locals.viewer as Viewer | null | undefined) ?? null);
  res.locals.admin = { id, username } satisfies Admin;
  next();
};

export function adminOf(res: Response): Admin {
  const admin = res.locals.admin as Admin | undefined;
  // Only reachable when a route forgot the guard: a bug, not a client's error.
  if (!admin) throw new Error('admin-only route served without the admin guard');
  return admin;
}
