import { describe, expect, it } from 'vitest';
import { can, listedStatuses, requireAccess, type ContentStatus } from '../../src/accounts/access';
import type { Viewer } from '../../src/accounts/sessions';

const viewer = (id: string, role: Viewer['role'] = 'user'): Viewer => ({
  id,
  username: id,
  role,
  authMethod: 'password',
});

const author = viewer('author');
const other = viewer('other');
const admin = viewer('admin', 'admin');
const nobody = null;

/** Who may open a piece of content, by its status: [status, nobody, other, author, admin]. */
const reading: [ContentStatus, boolean, boolean, boolean, boolean][] = [
  ['visible', true, true, true, true],
  ['checking', false, false, true, true],
  ['held', false, false, true, true],
  ['rejected', false, false, false, false],
  ['deleted', false, false, false, false],
];

/** Who sees it in a list (a profile's grid): admins review in the queue, not in lists. */
const listing: [ContentStatus, boolean, boolean, boolean, boolean][] = [
  ['visible', true, true, true, true],
  ['checking', false, false, true, false],
  ['held', false, false, true, false],
  ['rejected', false, false, false, false],
];

describe('the access policy', () => {
  it.each(reading)(
    'content %s: read by nobody %s, another %s, its author %s, an admin %s',
    (status, ...allowed) => {
      const who = [nobody, other, author, admin];
      expect(who.map((v) => can(v, 'content.read', { authorId: 'author', status }))).toEqual(
        allowed,
      );
    },
  );

  it.each(listing)(
    'content %s: listed for nobody %s, another %s, its author %s, an admin %s',
    (status, ...allowed) => {
      const who = [nobody, other, author, admin];
      expect(who.map((v) => can(v, 'content.list', { authorId: 'author', status }))).toEqual(
        allowed,
      );
    },
  );

  it.each([
    ['admin', null, [false, false, false, true]],
    ['content.manage', { authorId: 'author' }, [false, false, true, false]],
    ['comment.delete', { authorId: 'author', postAuthorId: 'other' }, [false, true, true, false]],
    ['comment.delete', { authorId: 'other', postAuthorId: 'other' }, [false, true, false, false]],
    ['content.report', { authorId: 'author' }, [false, true, false, true]],
    ['user.self', { userId: 'author' }, [false, false, true, false]],
  ] as const)(
    '%s of %j: nobody, another, the author, an admin → %j',
    (permission, subject, allowed) => {
      const who = [nobody, other, author, admin];
      // The table's rows pair each permission with its own subject's shape.
      const ask = (v: Viewer | null) => can(v, permission, subject as never);
      expect(who.map(ask)).toEqual(allowed);
    },
  );

  it('lists the statuses a viewer sees of an author', () => {
    const all = ['visible', 'checking', 'held'] as const;
    expect(listedStatuses(author, 'author', all)).toEqual(['visible', 'checking', 'held']);
    expect(listedStatuses(admin, 'author', all)).toEqual(['visible']);
    expect(listedStatuses(nobody, 'author', all)).toEqual(['visible']);
  });

  it("refuses with 401 for nobody, 403 for someone, or the caller's own error", () => {
    expect(() => requireAccess(nobody, 'admin', null)).toThrow(
      expect.objectContaining({ status: 401, message: 'Not signed in' }),
    );
    expect(() => requireAccess(other, 'admin', null)).toThrow(
      expect.objectContaining({ status: 403, message: 'Admins only' }),
    );
    expect(requireAccess(admin, 'admin', null)).toBe(admin);
    const gone = new Error('Post not found');
    expect(() =>
      requireAccess(other, 'content.manage', { authorId: 'author' }, () => gone),
    ).toThrow(gone);
  });
});
