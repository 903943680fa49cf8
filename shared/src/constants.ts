/** Business constants of the product (spec section 9). */
export const POINTS_PER_TAP = 1;
/**
 * The game screen sends the taps of this window over the socket as one batch; the counters show
 * every tap at once, so a longer window costs the player nothing and the server fewer messages.
 */
export const TAP_BATCH_WINDOW_MS = 250;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const REFRESH_INTERVAL_MS = 30_000;
export const MILESTONE_TARGET_USERS = 5;
export const MILESTONE_POINTS = 100_000;
export const STORY_ADVANCE_DELAY_MS = 500;
export const FLOATING_PLUS_ONE_MS = 1_000;
export const LOL_ANIMATION_MS = 1_000;
export const DEFAULT_COUNTRY = 'US';
export const RANK_BEFORE_LOAD = 1;
export const SOUND_DEFAULT_ON = true;
export const LOLGRAM_SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const CROP_OUTPUT_SIZE = 800;
export const CROP_JPEG_QUALITY = 0.85;
export const CROP_MIN_SIZE = 50;
export const CROP_INITIAL_PERCENT = 90;
export const FEED_LIMIT = 20;
/** Posts in one page of a profile's grid (GET /api/lolgram/posts/user/{id}?limit=). */
export const USER_POSTS_PAGE = 30;
export const STORY_BUBBLES = 8;
export const BIO_MAX_LENGTH = 150;
export const CAPTION_MAX_LENGTH = 2_200;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const PROFILE_SKELETON_TILES = 9;
export const LEADERBOARD_SKELETON_ROWS = 5;
export const LEADERBOARD_DEFAULT_LIMIT = 100;
export const LEADERBOARD_MAX_LIMIT = 1_000;
export const ANALYTICS_DEFAULT_TIMEFRAME = 'week';
export const ANALYTICS_DEFAULT_LIMIT = 10;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const WALLET_NETWORK = 'devnet';
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
