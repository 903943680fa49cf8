const MINUTE = 60 * 1000;

/** Comment limits, counted in Redis when there is one (core/limiter.ts), across every process. */
export const COMMENT_LIMITS = {
  /** Comments and replies one user may write in a minute (COMMENTS_PER_MINUTE overrides). */
  perUser: { limit: 10, windowMs: MINUTE },
  /** Comments and replies one post may get in a minute (COMMENTS_PER_POST_PER_MINUTE overrides). */
  perPost: { limit: 60, windowMs: MINUTE },
} as const;
