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
