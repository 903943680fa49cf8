import { z } from 'zod';
import { text } from './validation';

export const COMMENT_MAX_LENGTH = 500;
/** Comments of a thread per page. */
export const COMMENTS_PAGE = 20;
/** The first comments a feed card shows. */
export const FEED_CARD_COMMENTS = 2;

export const commentMessages = {
  required: 'Write a comment first',
  tooLong: `Comments must be ${COMMENT_MAX_LENGTH} characters or less`,
  // One wording whoever blocked whom: it says the action is refused, and not why.
  cannotComment: "You can't comment on this post",
  cannotReply: "You can't reply to this comment",
  commentsOff: 'Comments are turned off for this post',
  notFound: 'Comment not found',
  cannotReportOwn: 'You cannot report your own comment',
  alreadyReported: 'You already reported this comment',
  onlyOwnOrPostAuthor: 'Only its author or the post’s author can delete a comment',
  onlyPostAuthor: 'Only the post’s author can turn its comments off or on',
  tooManyByUser: 'You are commenting too fast: try again in a minute',
  tooManyOnPost: 'This post is getting too many comments right now: try again in a minute',
} as const;

/** POST /api/lolgram/posts/:id/comments: the text, and the comment it answers (for a reply). */
export const createCommentBodySchema = z.object({
  text: text()
    .trim()
    .min(1, commentMessages.required)
    .max(COMMENT_MAX_LENGTH, commentMessages.tooLong),
  parentId: z.uuid({ error: 'parentId must be a comment id' }).optional(),
});
export type CreateCommentBody = z.infer<typeof createCommentBodySchema>;

/**
 * GET /api/lolgram/posts/:id/comments?limit=20&after=<cursor>: a thread, oldest first, each reply
 * under its comment (a page may end among a comment's replies; the next goes on with them).
 */
export const commentsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(COMMENTS_PAGE),
  /** The answer's `nextCursor`. */
  after: z
    .string()
    .regex(/^\d{1,18}\.\d{1,18}$/, 'Invalid cursor')
    .optional(),
});

/** One comment or reply as a thread shows it. */
export const commentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  /** The top comment it answers; null for a top comment. */
  parentId: z.string().nullable(),
  /**
   * Null with `deleted`: a top comment that is gone (deleted, removed, or by someone the reader
   * blocked or was blocked by) kept as "deleted" above its replies; nothing of it is shown.
   */
  userId: z.string().nullable(),
  username: z.string().nullable(),
  userAvatar: z.string().nullable(),
  text: z.string().nullable(),
  deleted: z.boolean(),
  /**
   * With `deleted`: what is not shown is a public comment by someone the reader blocked, which
   * they are told rather than that it was deleted (one who was blocked reads only "deleted").
   */
  blockedAuthor: z.literal(true).optional(),
  createdAt: z.string(),
  /** Only on its author's own comment that is not public yet. */
  moderation: z.enum(['checking', 'held']).optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const commentPageSchema = z.object({
  comments: z.array(commentSchema),
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  commentCount: z.number().int(),
  commentsOff: z.boolean(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

/** What a feed card shows of one of a post's first comments. */
export const commentPreviewSchema = z.object({
  id: z.string(),
  username: z.string(),
  text: z.string(),
});
export type CommentPreview = z.infer<typeof commentPreviewSchema>;

/** PUT (off) or DELETE (on) /api/lolgram/posts/:id/comments-off. */
export const commentsOffStateSchema = z.object({ commentsOff: z.boolean() });
export type CommentsOffState = z.infer<typeof commentsOffStateSchema>;

/** Days of comment-wave signals the admin dashboard lists. */
export const COMMENT_SIGNAL_DAYS = 7;

/**
 * GET /api/lolgram/admin/comment-signals (admins): the accounts whose comments looked like a
 * wave on a post in the last COMMENT_SIGNAL_DAYS days, the most recent first, each with its
 * figures over those days.
 */
export const commentSignalSchema = z.object({
  user: z.object({ id: z.string(), username: z.string(), createdAt: z.string() }),
  /** Waves it took part in: a post's limit refused someone while its comments were counted. */
  waves: z.number().int(),
  /** Its comments it deleted within a minute of writing them. */
  deletedSoon: z.number().int(),
  /** Posts where either happened. */
  posts: z.number().int(),
  lastAt: z.string(),
});
export type CommentSignal = z.infer<typeof commentSignalSchema>;
