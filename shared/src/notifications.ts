import { z } from 'zod';
import { NOTIFICATIONS_PAGE } from './constants';
import { feedQuerySchema } from './lolgram';
import { text } from './validation';

/**
 * What a notification tells its user. Those with actors group: while unread, one row per kind and
 * subject (a post for `lol` and `comment`, the replied comment for `reply`, the account for
 * `follow`) takes every new actor, with a count and the latest few.
 */
export const notificationKindSchema = z.enum([
  'lol',
  'follow',
  'comment',
  'reply',
  'report-removed',
  'post-held',
  'post-approved',
  'post-rejected',
  'comment-held',
  'comment-approved',
  'comment-rejected',
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** Notifications are kept this long after their last change, then pruned. */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** The latest actors a grouped notification names (the others are counted). */
export const NOTIFICATION_ACTORS_SHOWN = 3;

export const notificationActorSchema = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
});
export type NotificationActor = z.infer<typeof notificationActorSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  /** The post it is about (null for a follow). */
  postId: z.string().nullable(),
  /** The post's square thumbnail, when the post is the user's own and still there. */
  postThumbnail: z.string().nullable(),
  /** The comment it is about (a comment or reply), else null. */
  commentId: z.string().nullable(),
  /** The latest actors, newest first (none for what moderation tells). */
  actors: z.array(notificationActorSchema),
  /** How many actors in all (the named ones included). */
  actorCount: z.number().int(),
  read: z.boolean(),
  /** When it last changed (a new actor moves it up). */
  updatedAt: z.string(),
  /** Opaque: pass it as `before` to read the older ones. */
  cursor: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/lolgram/notifications?limit=20&before=<cursor>: the latest changed first. */
export const notificationsQuerySchema = feedQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(50).default(NOTIFICATIONS_PAGE),
});

/**
 * POST /api/lolgram/notifications/read: marks read what the user has seen: every notification, or
 * with `upTo` (the `cursor` of the newest one shown) those not changed after it, so that one that
 * came in meanwhile stays unread.
 */
export const markReadBodySchema = z
  .object({ upTo: text().max(200).optional() })
  .optional()
  .default({});

/** GET /api/lolgram/notifications/unread-count, the mark-read answer, and the live push. */
export const unreadCountSchema = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** Who did it, in words: "alice", "alice and bob", "alice and 3 others". */
export function actorsPhrase(actors: readonly { username: string }[], count: number): string {
  const [first, second] = actors;
  if (!first) return count === 1 ? 'Someone' : `${count} people`;
  const others = count - 1;
  if (others <= 0) return first.username;
  if (others === 1 && second) return `${first.username} and ${second.username}`;
  return `${first.username} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** A notification as a sentence, the same on every screen. */
export function notificationText(
  n: Pick<Notification, 'kind' | 'actors' | 'actorCount'> & { commentId?: string | null },
): string {
  const who = actorsPhrase(n.actors, n.actorCount);
  switch (n.kind) {
    case 'lol':
      return `${who} LOLed your post`;
    case 'follow':
      return `${who} started following you`;
    case 'comment':
      return `${who} commented on your post`;
    case 'reply':
      return `${who} replied to your comment`;
    case 'report-removed':
      return `A ${n.commentId ? 'comment' : 'post'} you reported was removed. Thank you for reporting it.`;
    case 'post-held':
      return 'Your post is being reviewed by a moderator before everyone can see it';
    case 'post-approved':
      return 'Your post was approved and everyone can see it now';
    case 'post-rejected':
      return 'Your post was removed for breaking the community rules';
    case 'comment-held':
      return 'Your comment is being reviewed by a moderator before everyone can see it';
    case 'comment-approved':
      return 'Your comment was approved and everyone can see it now';
    case 'comment-rejected':
      return 'Your comment was removed for breaking the community rules';
  }
}
