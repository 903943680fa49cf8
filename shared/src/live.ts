import { z } from 'zod';
import { postStatusSchema } from './admin';

/**
 * The signed-in live channel: a Socket.IO namespace whose handshake takes the LOLGram session
 * cookie. The server pushes to one user (every tab and device they are signed in with); the
 * client sends nothing on it.
 */
export const LIVE_NAMESPACE = '/live';

/** A post of the user moved: its automatic check ended, or a moderator decided. */
export const postModerationPushSchema = z.object({
  postId: z.string(),
  status: postStatusSchema,
  previous: postStatusSchema,
});
export type PostModerationPush = z.infer<typeof postModerationPushSchema>;

/** The user's unread notifications changed (at most one push a second, with the latest count). */
export const notificationsPushSchema = z.object({ unread: z.number().int() });

/** Every push of the live channel, by event name, with its payload's schema. */
export const liveEventSchemas = {
  'post.moderation': postModerationPushSchema,
  notifications: notificationsPushSchema,
} as const;

export type LiveEvents = {
  [K in keyof typeof liveEventSchemas]: z.infer<(typeof liveEventSchemas)[K]>;
};
export type LiveEventName = keyof LiveEvents;
