import { z } from 'zod';
import { ANALYTICS_DEFAULT_LIMIT, ANALYTICS_DEFAULT_TIMEFRAME } from './constants';
import { ignoredFields } from './ignored-fields';
import { text } from './validation';

export const moderationDecisionSchema = z.enum(['approved', 'rejected'], {
  error: 'decision must be "approved" or "rejected"',
});
export type ModerationDecision = z.infer<typeof moderationDecisionSchema>;

export const moderationDecisionBodySchema = z.object({
  moderatorId: ignoredFields.moderatorId,
  decision: moderationDecisionSchema,
  notes: text().max(1000).optional(),
});
export type ModerationDecisionBody = z.infer<typeof moderationDecisionBodySchema>;

export const moderationNotes = {
  approved: 'Content approved by admin',
  rejected: 'Content violates community guidelines',
} as const;

export const analyticsTimeframeSchema = z.enum(['day', 'week', 'month']);
export type AnalyticsTimeframe = z.infer<typeof analyticsTimeframeSchema>;

/** The spec's snake_case, kept on the wire (every other answer is camelCase): `post_id`, `view_count`. */
export const popularItemSchema = z.object({ post_id: z.string(), view_count: z.number().int() });
export type PopularItem = z.infer<typeof popularItemSchema>;

export const REPORT_REASONS = ['spam', 'offensive', 'harassment', 'nudity', 'other'] as const;
export const reportReasonSchema = z.enum(REPORT_REASONS, {
  error: `reason must be one of: ${REPORT_REASONS.join(', ')}`,
});
export type ReportReason = z.infer<typeof reportReasonSchema>;

export const REPORT_DETAILS_MAX = 500;

/** POST /api/lolgram/posts/:id/report (and /comments/:id/report): a reason from the list, and optionally the reporter's words. */
export const reportBodySchema = z.object({
  reason: reportReasonSchema,
  details: text()
    .trim()
    .max(REPORT_DETAILS_MAX, `Details must be ${REPORT_DETAILS_MAX} characters or less`)
    .optional(),
});
export type ReportBody = z.infer<typeof reportBodySchema>;

/** The answer to a report. */
export const reportAnswerSchema = z.object({ reported: z.literal(true) });
export type ReportAnswer = z.infer<typeof reportAnswerSchema>;

/** Where a post stands: checking (automatic check running), visible, held (for a moderator), rejected. */
export const postStatusSchema = z.enum(['checking', 'visible', 'held', 'rejected']);
export type PostStatus = z.infer<typeof postStatusSchema>;

/**
 * The answer to a decision. `postStatus` is the post's status after it (null when the content is
 * not a post): approving a post that was never hidden leaves it `visible` with `previousPostStatus`
 * `visible`, approving a held one makes it visible, and a rejected post never comes back.
 */
export const moderationDecisionAnswerSchema = z.object({
  id: z.string(),
  decision: moderationDecisionSchema,
  moderatorId: z.string(),
  postStatus: postStatusSchema.nullable(),
  previousPostStatus: postStatusSchema.nullable(),
  /** The content's status after the decision and before it, whatever its type (null: gone). */
  status: z.string().nullable(),
  previousStatus: z.string().nullable(),
});
export type ModerationDecisionAnswer = z.infer<typeof moderationDecisionAnswerSchema>;

/**
 * What moderation knows how to check, queue and decide. A new kind of content joins the list with
 * its preview below, a scorer and an adapter on the server, and a renderer on the dashboard.
 */
export const MODERATED_CONTENT_TYPES = ['post', 'comment', 'post-edit'] as const;
export const moderatedContentTypeSchema = z.enum(MODERATED_CONTENT_TYPES);
export type ModeratedContentType = z.infer<typeof moderatedContentTypeSchema>;

/** What the dashboard shows of a post under review. */
export const postPreviewSchema = z.object({
  caption: z.string(),
  thumbnailUrl: z.string(),
  imageUrl: z.string(),
  username: z.string(),
  status: z.string(),
});
export type PostPreview = z.infer<typeof postPreviewSchema>;

/** What the dashboard shows of a comment under review: its text, with the post it is on. */
export const commentModerationPreviewSchema = z.object({
  text: z.string(),
  username: z.string(),
  status: z.string(),
  postId: z.string(),
  postCaption: z.string(),
  postThumbnailUrl: z.string(),
});
export type CommentModerationPreview = z.infer<typeof commentModerationPreviewSchema>;

/**
 * What the dashboard shows of an author's edit of a post's caption under review (its `contentId`
 * is the post's): the caption everyone reads, and the edit that waits (null once it is gone).
 */
export const postEditPreviewSchema = z.object({
  caption: z.string(),
  editedCaption: z.string().nullable(),
  thumbnailUrl: z.string(),
  username: z.string(),
  status: z.string(),
});
export type PostEditPreview = z.infer<typeof postEditPreviewSchema>;

const queueEntryFields = {
  id: z.string(),
  contentId: z.string(),
  aiScore: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  reportCount: z.number().int(),
};

/**
 * A queue item with what a moderator needs to decide without leaving the page: its content's
 * preview under the content type's own name (null when the content is gone).
 */
export const moderationQueueEntrySchema = z.discriminatedUnion('contentType', [
  z.object({
    ...queueEntryFields,
    contentType: z.literal('post'),
    post: postPreviewSchema.nullable(),
  }),
  z.object({
    ...queueEntryFields,
    contentType: z.literal('comment'),
    comment: commentModerationPreviewSchema.nullable(),
  }),
  z.object({
    ...queueEntryFields,
    contentType: z.literal('post-edit'),
    'post-edit': postEditPreviewSchema.nullable(),
  }),
]);
export type ModerationQueueEntry = z.infer<typeof moderationQueueEntrySchema>;
/** The queue item of one content type, with its preview. */
export type QueueEntryOf<T extends ModeratedContentType> = Extract<
  ModerationQueueEntry,
  { contentType: T }
>;

export const popularQuerySchema = z.object({
  timeframe: analyticsTimeframeSchema.default(ANALYTICS_DEFAULT_TIMEFRAME),
  limit: z.coerce.number().int().min(1).max(100).default(ANALYTICS_DEFAULT_LIMIT),
});

export const adminStatsSchema = z.object({
  users: z.number().int(),
  posts: z.number().int(),
  pendingModeration: z.number().int(),
  /** database, redis, and imageCheck: off, not loaded, loading, ready or failed. */
  health: z.record(z.string(), z.string()),
  recentDecisions: z.array(
    z.object({
      decision: moderationDecisionSchema,
      moderator: z.string(),
      contentId: z.string(),
      notes: z.string(),
      decidedAt: z.string(),
    }),
  ),
  daily: z.array(
    z.object({
      day: z.string(),
      lols: z.number().int(),
      posts: z.number().int(),
      follows: z.number().int(),
    }),
  ),
  reportsByReason: z.array(z.object({ reason: z.string(), count: z.number().int() })),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;
