/** How the screens look and move; nothing here is part of the API. */

/** Leaderboards, the milestone, the feed and the admin figures are read again this often. */
export const REFRESH_INTERVAL_MS = 30_000;
/** The milestone banner's goal: this many players at 100K points. */
export const MILESTONE_TARGET_USERS = 5;
export const STORY_ADVANCE_DELAY_MS = 500;
export const FLOATING_PLUS_ONE_MS = 1_000;
export const LOL_ANIMATION_MS = 1_000;
/** The country shown before the player has one. */
export const DEFAULT_COUNTRY = 'US';
export const RANK_BEFORE_LOAD = 1;
export const SOUND_DEFAULT_ON = true;
export const CROP_OUTPUT_SIZE = 800;
export const CROP_JPEG_QUALITY = 0.85;
export const CROP_MIN_SIZE = 50;
export const CROP_INITIAL_PERCENT = 90;
export const STORY_BUBBLES = 8;
export const PROFILE_SKELETON_TILES = 9;
export const LEADERBOARD_SKELETON_ROWS = 5;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];
