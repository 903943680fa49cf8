import { isId } from '../../core/ids';

/** Where a page of posts starts: after the post created at `at` (Postgres's text) with this id. */
export interface Cursor {
  at: string;
  id: string;
}

export function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

// Postgres's text of a timestamptz: "2024-11-22 10:11:12.123456+00" (the offset may have minutes).
const CURSOR_AT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,6})?[+-](\d{2})(:\d{2}){0,2}$/;

/** Decodes a page cursor; null when it is not one of ours (so never a 500 from the cast). */
export function parseCursor(cursor: string): Cursor | null {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  const parts = CURSOR_AT.exec(at ?? '');
  if (!parts || !id || extra !== undefined || !isId(id)) return null;
  if (parts[1] < '0001' || Number(parts[4]) > 15) return null;
  // A real calendar time: 2024-02-31 or 25:00 would not survive the round trip.
  const iso = `${parts[1]}T${parts[2]}`;
  const date = new Date(`${iso}Z`);
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(iso)) return null;
  return { at, id };
}
