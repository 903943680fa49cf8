import { z } from 'zod';
import { text } from './validation';

/**
 * Request fields that clients written to the spec send and the server accepts but ignores: the
 * server counts every tap itself and opens sessions at zero, and the moderator of a decision is the
 * signed-in admin, never a name in the body. Our own screens leave them out (see `Sent`).
 */
export const ignoredFields = {
  sessionPoints: z.number().int().nonnegative().optional(),
  sessionTaps: z.number().int().nonnegative().optional(),
  moderatorId: text().optional(),
};
type IgnoredField = keyof typeof ignoredFields;

/** A request body as our own screens send it: without the fields the server ignores. */
export type Sent<Body> = Omit<Body, IgnoredField>;
