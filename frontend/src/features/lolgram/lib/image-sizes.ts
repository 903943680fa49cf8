import { FEED_IMAGE_SIZES } from '@tapgram/shared';

/**
 * The `sizes` of each place a post's image shows, for its srcset: the browser downloads the copy
 * that fills that width on its screen, so a phone never fetches the 1080 px copy for a 360 px card.
 */
export const IMAGE_SIZES = {
  /** A feed card: the column's width (max-w-lg, 32rem), the whole screen on a phone. */
  card: FEED_IMAGE_SIZES,
  /** A tile of a 3-column grid in that column. */
  tile: '(min-width: 32rem) 11rem, 34vw',
} as const;
