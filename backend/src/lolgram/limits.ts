const MINUTE = 60 * 1000;

/** LOLGram's abuse limits, per process (each backend process counts on its own). */
export const LOLGRAM_LIMITS = {
  /** Failed sign-ins for one username from one client address. */
  loginPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  /** Failed sign-ins from one client address across every username (password spraying). */
  loginPerClient: { limit: 30, windowMs: 15 * MINUTE },
  /** Wallet sign-in requests (nonces) one client address may ask for. */
  noncePerClient: { limit: 60, windowMs: 10 * MINUTE },
} as const;

// Keys are bounded whatever a client sends (no username is longer; proxies can forward anything).
const KEY_PART_MAX = 64;

/** A limiter key part made of what a client sent (its address, a username). */
export const limitKey = (part: string) => part.slice(0, KEY_PART_MAX);

/** How often expired wallet nonces and sign-in sessions are deleted. */
export const EXPIRY_CLEANUP_INTERVAL_MS = 10 * MINUTE;
