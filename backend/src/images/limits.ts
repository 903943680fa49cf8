const MINUTE = 60 * 1000;

/** The bounds of image uploads: per user across every process, and per process. */
export const IMAGE_LIMITS = {
  /** Image uploads (posts and avatars) one user may send (UPLOADS_PER_HOUR overrides the limit). */
  uploadPerUser: { limit: 30, windowMs: 60 * MINUTE },
  /**
   * Uploaded images decoded and re-encoded at once in this process, and how many may wait (each
   * holding its upload, up to 10 MB); more are refused with 503. One at a time bounds the memory
   * (the largest accepted image takes up to about 200 MB while it is decoded) and leaves libuv's
   * other threads to the password hashes and file reads; a job takes about a second at most.
   */
  imageJobs: { running: 1, waiting: 8, retryAfterSeconds: 2 },
} as const;
