import { z } from 'zod';
import { BLOCKS_PAGE, SAVED_PAGE } from './constants';
import { feedQuerySchema } from './lolgram';
import { captionSchema } from './validation';

/** POST or DELETE /api/lolgram/posts/:id/save: whether the post is in the viewer's Saved grid now. */
export const saveStateSchema = z.object({ isSaved: z.boolean() });
export type SaveState = z.infer<typeof saveStateSchema>;

/**
 * GET /api/lolgram/users/:id/saved?limit=30&before=<cursor>: the posts one saved, the latest saved
 * first, a page at a time (each post's `cursor` is where it was saved). Only its owner reads it.
 */
export const savedQuerySchema = feedQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(50).default(SAVED_PAGE),
});

/** PATCH /api/lolgram/posts/:id: the author's new caption, by the rules of a new post's. */
export const editPostBodySchema = z.object({ caption: captionSchema });
export type EditPostBody = z.infer<typeof editPostBodySchema>;

/** GET /api/lolgram/posts/located/count: every public post with a location, not a page of them. */
export const locatedCountSchema = z.object({ count: z.number().int() });
export type LocatedCount = z.infer<typeof locatedCountSchema>;

/** GET, POST or DELETE /api/lolgram/users/:id/block: whether the viewer has blocked that user. */
export const blockStateSchema = z.object({ blocked: z.boolean() });
export type BlockState = z.infer<typeof blockStateSchema>;

/** An account on one's block list. */
export const blockedUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  avatarSrcset: z.string().optional(),
  blockedAt: z.string(),
  /** Opaque: pass it as `before` to read the accounts blocked before this one. */
  cursor: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUserSchema>;

/** GET /api/lolgram/users/:id/blocked?limit=30&before=<cursor>: the latest blocked first. */
export const blocksQuerySchema = feedQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(50).default(BLOCKS_PAGE),
});
