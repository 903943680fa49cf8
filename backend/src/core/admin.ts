import type { Response } from 'express';

/** The admin a request was let through for, set by the admin-only guard LOLGram provides. */
export interface Admin {
  id: string;
  username: string;
}

export function adminOf(res: Response): Admin {
  const admin = res.locals.admin as Admin | undefined;
  // Only reachable when a route forgot the guard: a bug, not a client's error.
  if (!admin) throw new Error('admin-only route served without the admin guard');
  return admin;
}
