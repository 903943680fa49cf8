import { FEED_IMAGE_SIZES, FEED_LIMIT, type Post } from '@tapgram/shared';
import { escapeAttribute } from '../previews/link-previews';
import type { PostsService } from './posts-service';

/** LOLGram's home page, whose feed opens on the first post of the shared first page. */
const FEED_PAGE = '/lolgram';

/**
 * The tag that asks for the feed's first photo with the HTML of LOLGram's home page: the photo is
 * what a phone shows largest there (its LCP), and the page's script would otherwise ask for it only
 * once it has loaded and read the feed. Its srcset and sizes are the feed card's, so that the
 * browser picks the same copy for both and the card's image takes the download over.
 */
function photoPreload(post: Post): string {
  const attributes = [
    'rel="preload"',
    'as="image"',
    'fetchpriority="high"',
    `href="${escapeAttribute(post.imageUrl)}"`,
    ...(post.imageSrcset
      ? [
          `imagesrcset="${escapeAttribute(post.imageSrcset)}"`,
          `imagesizes="${escapeAttribute(FEED_IMAGE_SIZES)}"`,
        ]
      : []),
  ];
  return `<link ${attributes.join(' ')}>`;
}

/**
 * The head tags of LOLGram's home page: the preload of its feed's first photo, read from the
 * feed's shared first page (one read a second at most, see FeedCache). A reader whose own first
 * page differs (one who blocked that post's author) downloads one photo the page does not show.
 */
export function feedPageHead(posts: PostsService) {
  return async ({ pathname }: { pathname: string }): Promise<string | null> => {
    if (pathname !== FEED_PAGE) return null;
    const [first] = await posts.feed(null, FEED_LIMIT, undefined);
    return first ? photoPreload(first) : null;
  };
}
