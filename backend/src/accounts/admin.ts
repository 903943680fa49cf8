import type { RequestHandler, Response } from 'express';
import { requireAccess } from './access';
import type { Viewer } from './sessions';

/** The admin a request was let through for, set by the admin-only guard. */
export interface Admin {
  id: string;
  username: string;
}

/** After the viewer is resolved: lets only admins through, with the admin in `adminOf(res)`. */
export const admitAdmins: RequestHandler = (_req, res, next) => {
  const viewer = (res.locals.viewer as Viewer | null | undefined) ?? null;
  // 401 for nobody, 403 for a user who is not an admin (the role, never the name: access.ts).
  const { id, username } = requireAccess(viewer, 'admin', null);
  res.locals.admin = { id, username } satisfies Admin;
  next();
};

export function adminOf(res: Response): Admin {
  const admin = res.locals.admin as Admin | undefined;
  // Only reachable when a route forgot the guard: a bug, not a client's error.
  if (!admin) throw new Error('admin-only route served without the admin guard');
  return admin;
}
