import { z } from 'zod';
import { moderatedContentTypeSchema } from './admin';

/**
 * Content of the user, of any type, moved in moderation: its automatic check ended, or a moderator
 * decided. `status` and `previous` are the content's statuses (a post's, a comment's); `edit`: the
 * content is an edit of a post's caption (`contentType: "post-edit"`), now shown (`visible`), held
 * for a moderator, or dropped (`rejected`), while the post itself stayed where it was.
 */
export const moderationPushSchema = z.object({
  contentType: moderatedContentTypeSchema,
  contentId: z.string(),
  /** The post it is, or is on; null for content that is not on a post. */
  postId: z.string().nullable(),
  status: z.string(),
  previous: z.string(),
  edit: z.boolean(),
});
export type ModerationPush = z.infer<typeof moderationPushSchema>;

/** The user's unread notifications changed (at most one push a second, with the latest count). */
export const notificationsPushSchema = z.object({ unread: z.number().int() });

/** Every push of the live channel, by event name, with its payload's schema. */
export const liveEventSchemas = {
  moderation: moderationPushSchema,
  notifications: notificationsPushSchema,
} as const;

export type LiveEvents = {
  [K in keyof typeof liveEventSchemas]: z.infer<(typeof liveEventSchemas)[K]>;
};
export type LiveEventName = keyof LiveEvents;
