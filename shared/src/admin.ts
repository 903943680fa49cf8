import { z } from 'zod';

export const moderationQueueItemSchema = z.object({
  id: z.string(),
  contentType: z.string(),
  contentId: z.string(),
  aiScore: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

export const moderationDecisionSchema = z.enum(['approved', 'rejected'], {
  error: 'decision must be "approved" or "rejected"',
});
export type ModerationDecision = z.infer<typeof moderationDecisionSchema>;

export const moderationDecisionBodySchema = z.object({
  moderatorId: z.string().optional(),
  decision: moderationDecisionSchema,
  notes: z.string().max(1000).optional(),
});
export type ModerationDecisionBody = z.infer<typeof moderationDecisionBodySchema>;

export const moderationNotes = {
  approved: 'Content approved by admin',
  rejected: 'Content violates community guidelines',
} as const;

export const analyticsTimeframeSchema = z.enum(['day', 'week', 'month']);
export type AnalyticsTimeframe = z.infer<typeof analyticsTimeframeSchema>;

export const popularItemSchema = z.object({ post_id: z.string(), view_count: z.number().int() });
export type PopularItem = z.infer<typeof popularItemSchema>;

export const REPORT_REASONS = ['spam', 'offensive', 'harassment', 'nudity', 'other'] as const;
export const reportBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'A reason is required')
    .max(200, 'Reason must be 200 characters or less'),
});

/** A queue item with what a moderator needs to decide without leaving the page. */
export const moderationQueueEntrySchema = moderationQueueItemSchema.extend({
  reportCount: z.number().int(),
  post: z
    .object({
      caption: z.string(),
      thumbnailUrl: z.string(),
      imageUrl: z.string(),
      username: z.string(),
      status: z.string(),
    })
    .nullable(),
});
export type ModerationQueueEntry = z.infer<typeof moderationQueueEntrySchema>;

export const popularQuerySchema = z.object({
  timeframe: analyticsTimeframeSchema.default('week'),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const adminStatsSchema = z.object({
  users: z.number().int(),
  posts: z.number().int(),
  pendingModeration: z.number().int(),
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
