/**
 * Constants of the API and its rules, which the server (and often the screens) relies on. Those only
 * the screens use live in frontend/src/lib/ui-constants.ts.
 */
export const POINTS_PER_TAP = 1;
/**
 * The game screen sends the taps of this window over the socket as one batch; the counters show
 * every tap at once, so a longer window costs the player nothing and the server fewer messages
 * (tap games in production batch over 0.5 to 5 s). A hidden or closing page sends its window at
 * once.
 */
export const TAP_BATCH_WINDOW_MS = 1000;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
/** The points a player needs to count for the milestone (GET /api/milestone/100k). */
export const MILESTONE_POINTS = 100_000;
export const LOLGRAM_SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Posts in one page of the feed (GET /api/lolgram/posts/feed?limit=). */
export const FEED_LIMIT = 20;
/**
 * The `sizes` of a feed card's image, for its srcset: the feed's column (max-w-lg, 32rem), the
 * whole screen on a phone. The server's preload of the feed's first photo names it too, so that
 * the browser picks the same copy for both.
 */
export const FEED_IMAGE_SIZES = '(min-width: 32rem) 32rem, 100vw';
/** Posts in one page of a profile's grid (GET /api/lolgram/posts/user/{id}?limit=). */
export const USER_POSTS_PAGE = 30;
/** Posts in one page of one's Saved grid (GET /api/lolgram/users/{id}/saved?limit=). */
export const SAVED_PAGE = 30;
/** Accounts in one page of one's block list (GET /api/lolgram/users/{id}/blocked?limit=). */
export const BLOCKS_PAGE = 30;
/** Notifications in one page of the list (GET /api/lolgram/notifications?limit=). */
export const NOTIFICATIONS_PAGE = 20;
export const BIO_MAX_LENGTH = 150;
export const CAPTION_MAX_LENGTH = 2_200;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const LEADERBOARD_DEFAULT_LIMIT = 100;
export const LEADERBOARD_MAX_LIMIT = 1_000;
/** Players shown either side of the player in GET /api/users/{id}/around, by default and at most. */
export const AROUND_DEFAULT_SPAN = 2;
export const AROUND_MAX_SPAN = 10;
/** Archived seasons in one page of GET /api/seasons. */
export const SEASONS_PAGE = 20;
/** What GET /api/lolgram/analytics/popular reads when the query leaves them out. */
export const ANALYTICS_DEFAULT_TIMEFRAME = 'week';
export const ANALYTICS_DEFAULT_LIMIT = 10;
/** The Solana cluster wallets sign in on. */
export const WALLET_NETWORK = 'devnet';
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The signed-in live channel: a Socket.IO namespace whose handshake takes the LOLGram session
 * cookie. The server pushes to one user (every tab and device they are signed in with); the
 * client sends nothing on it.
 */
export const LIVE_NAMESPACE = '/live';
