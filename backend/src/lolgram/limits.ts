const MINUTE = 60 * 1000;

/**
 * LOLGram's abuse limits, counted in Redis when there is one (core/limiter.ts), across every
 * process; the password hashes bound the work of this process, so they are counted in it.
 */
export const LOLGRAM_LIMITS = {
  /** Failed sign-ins for one username from one client address. */
  loginPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  /** Failed sign-ins from one client address across every username (password spraying). */
  loginPerClient: { limit: 30, windowMs: 15 * MINUTE },
  /** Wallet sign-in requests (nonces) one client address may ask for. */
  noncePerClient: { limit: 60, windowMs: 10 * MINUTE },
  /** New accounts one client address may create (SIGNUPS_PER_HOUR overrides the limit). */
  signupPerClient: { limit: 10, windowMs: 60 * MINUTE },
  /**
   * Password hashes (argon2id, 19 MiB each) computing at once in this process, and how many may
   * wait for one; more are refused with 503. Argon2 runs on libuv's pool of 4 threads, which file
   * reads share: two leave room for them. The waiting room holds a burst of sign-ins (about a
   * second of hashing) and stays below what one spraying client may send (loginPerClient).
   */
  passwordHashes: { running: 2, waiting: 32, retryAfterSeconds: 2 },
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

// Keys are bounded whatever a client sends (no username is longer; proxies can forward anything).
const KEY_PART_MAX = 64;

/** A limiter key part made of what a client sent (its address, a username). */
export const limitKey = (part: string) => part.slice(0, KEY_PART_MAX);

/** How often expired wallet nonces and sign-in sessions are deleted. */
export const EXPIRY_CLEANUP_INTERVAL_MS = 10 * MINUTE;
