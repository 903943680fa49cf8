import { ForbiddenError, UnauthorizedError } from '../core/errors';
import type { Viewer } from './sessions';

/**
 * Who may do what: every access rule of the product, once. A route or a service asks `can` (to
 * choose what to answer) or `requireAccess` (to refuse); the rules themselves live only here, and
 * their test is a table (test/accounts/access.test.ts). Facts that need the database (whether one
 * user blocked another, a post's status) are looked up by the caller and handed in as the subject.
 */

/** Where a piece of content (a post, a comment) stands, as far as who may see it. */
export type ContentStatus = 'checking' | 'held' | 'visible' | 'rejected' | 'deleted';

/** A piece of content as the rules read it: whose it is and where it stands. */
export interface ContentSubject {
  authorId: string;
  status: ContentStatus;
}

/** What each permission's rule reads. */
interface Subjects {
  /** Everything an admin does: the moderation queue and decisions, the game's operators' console. */
  admin: null;
  /** Open a piece of content (its page, its images, its comments): a visible one anyone may; one
   * still checking or held only its author and admins; a rejected or deleted one nobody. */
  'content.read': ContentSubject;
  /** See a piece of content in a list (a profile's grid): the author also sees theirs still
   * checking or held; admins see those in the queue, not in lists. */
  'content.list': ContentSubject;
  /** Change one's own content (edit a caption, delete a post, turn its comments off or on). */
  'content.manage': { authorId: string };
  /** Delete a comment: its author, or the author of the post it is on. */
  'comment.delete': { authorId: string; postAuthorId: string };
  /** Report content: anyone signed in, but not their own. */
  'content.report': { authorId: string };
  /** Act as a user (post, follow, read saves or blocks): only oneself. */
  'user.self': { userId: string };
}

export type Permission = keyof Subjects;

const isAdmin = (viewer: Viewer | null) => viewer?.role === 'admin';
const isAuthor = (viewer: Viewer | null, authorId: string) => viewer?.id === authorId;
const inReview = (status: ContentStatus) => status === 'checking' || status === 'held';

const rules: { [P in Permission]: (viewer: Viewer | null, subject: Subjects[P]) => boolean } = {
  admin: (viewer) => isAdmin(viewer),
  'content.read': (viewer, { authorId, status }) =>
    status === 'visible' || (inReview(status) && (isAuthor(viewer, authorId) || isAdmin(viewer))),
  'content.list': (viewer, { authorId, status }) =>
    status === 'visible' || (inReview(status) && isAuthor(viewer, authorId)),
  'content.manage': (viewer, { authorId }) => isAuthor(viewer, authorId),
  'comment.delete': (viewer, { authorId, postAuthorId }) =>
    isAuthor(viewer, authorId) || isAuthor(viewer, postAuthorId),
  'content.report': (viewer, { authorId }) => viewer !== null && !isAuthor(viewer, authorId),
  'user.self': (viewer, { userId }) => isAuthor(viewer, userId),
};

/** Whether `viewer` (null: nobody signed in) may do `permission` to `subject`. */
export function can<P extends Permission>(
  viewer: Viewer | null,
  permission: P,
  subject: Subjects[P],
): boolean {
  return rules[permission](viewer, subject);
}

/**
 * For what only someone signed in does: the viewer, if they may do `permission` to `subject`; otherwise `denied()` is thrown (a 404 where
 * the content's existence is not the viewer's to know, a 400 or 403 with the caller's words), or by
 * default 401 for nobody and 403 for someone.
 */
export function requireAccess<P extends Permission>(
  viewer: Viewer | null,
  permission: P,
  subject: Subjects[P],
  denied?: () => Error,
): Viewer {
  if (viewer && can(viewer, permission, subject)) return viewer;
  if (denied) throw denied();
  if (!viewer) throw new UnauthorizedError('Not signed in');
  throw new ForbiddenError(permission === 'admin' ? 'Admins only' : 'Not allowed');
}

/** The statuses of `authorId`'s content that `viewer` sees in lists. */
export function listedStatuses<S extends ContentStatus>(
  viewer: Viewer | null,
  authorId: string,
  statuses: readonly S[],
): S[] {
  return statuses.filter((status) => can(viewer, 'content.list', { authorId, status }));
}
