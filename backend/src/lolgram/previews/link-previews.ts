import { isId } from '../../core/ids';
import type { Logger } from '../../core/logger';
import type { Queryable } from '../../core/db';
import type { EventBus } from '../../core/events';
import { imageContentType, imageUrl, type ImageStore } from '../../images';
import sharp from 'sharp';
import '../posts/events';

/** What a link preview shows: a post's or a profile's. */
interface Preview {
  kind: 'post' | 'profile';
  title: string;
  description: string;
  image: { key: string; width: number; height: number; alt: string } | null;
}

/** How long a page's preview is kept, and how many are. */
const PREVIEW_TTL_MS = 60_000;
const MAX_PREVIEWS = 1_000;
const DESCRIPTION_MAX = 200;
const POST_PAGE = /^\/lolgram\/p\/([^/]+)\/?$/;
const PROFILE_PAGE = /^\/lolgram\/([^/]+)\/?$/;
/** What a username may look like before it is looked up (any LOLGram name fits). */
const USERNAME_FORM = /^[\w.-]{1,64}$/;

/** Text for an HTML attribute's value in double quotes: nothing in it can close the attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${[...flat].slice(0, max - 1).join('')}…`;
}

/**
 * The link-preview tags of LOLGram's pages: a visible post's page (its caption and its 1080 px
 * image with its size) and a profile's (its bio and avatar). A held, checking or rejected post,
 * one whose author is gone, or an unknown id or name has none: the page is served as it is.
 * Each page costs one indexed query (and for a post, one read of its image's header) at most
 * once a minute, from a bounded cache that a change of the post empties on every node.
 */
export class LinkPreviews {
  private readonly cache = new Map<string, { preview: Preview | null; at: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly images: ImageStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Drops a post's preview on every node when the post changes. */
  listen(events: EventBus): void {
    for (const change of [
      'post.visibility-changed',
      'post.deleted',
      'post.caption-changed',
    ] as const) {
      events.on(change, ({ postId }) => this.cache.delete(`p:${postId}`), { where: 'every-node' });
    }
  }

  async headFor({
    pathname,
    origin,
  }: {
    pathname: string;
    origin: string | null;
  }): Promise<string | null> {
    // Tags name the site by absolute URLs: without a known origin there are none.
    if (!origin) return null;
    const post = POST_PAGE.exec(pathname);
    let key: string | null = null;
    if (post) {
      if (isId(post[1])) key = `p:${post[1].toLowerCase()}`;
    } else {
      const profile = PROFILE_PAGE.exec(pathname);
      if (profile && USERNAME_FORM.test(profile[1])) key = `u:${profile[1].toLowerCase()}`;
    }
    if (!key) return null;
    const preview = await this.cached(key);
    return preview ? tags(preview, origin, pathname) : null;
  }

  private async cached(key: string): Promise<Preview | null> {
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < PREVIEW_TTL_MS) return hit.preview;
    const preview = key.startsWith('p:')
      ? await this.postPreview(key.slice(2))
      : await this.profilePreview(key.slice(2));
    this.cache.delete(key);
    if (this.cache.size >= MAX_PREVIEWS) {
      // The oldest goes first (a Map keeps its insertion order).
      this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, { preview, at: now });
    return preview;
  }

  private async postPreview(postId: string): Promise<Preview | null> {
    const { rows } = await this.db.query<{
      caption: string;
      image_key: string;
      username: string;
    }>(
      `SELECT p.caption, p.image_key, u.username
         FROM posts p JOIN lolgram_users u ON u.id = p.user_id
        WHERE p.id = $1 AND p.status = 'visible'`,
      [postId],
    );
    const row = rows[0];
    if (!row) return null;
    // The full size, a JPEG of 1,080 px on its longer side, which every link unfurler reads.
    const key = row.image_key;
    return {
      kind: 'post',
      title: `${row.username} on LOLGram`,
      description: shorten(row.caption, DESCRIPTION_MAX),
      image: await this.sized(key, shorten(row.caption, DESCRIPTION_MAX)),
    };
  }

  private async profilePreview(username: string): Promise<Preview | null> {
    const { rows } = await this.db.query<{
      username: string;
      bio: string | null;
      avatar_key: string | null;
      post_count: number;
    }>(
      `SELECT username, bio, avatar_key, post_count
         FROM lolgram_users WHERE lower(username) = lower($1)`,
      [username],
    );
    const row = rows[0];
    if (!row) return null;
    const image = row.avatar_key
      ? await this.sized(row.avatar_key, `${row.username}'s avatar`)
      : null;
    const bio = row.bio?.trim();
    return {
      kind: 'profile',
      title: `${row.username} on LOLGram`,
      description: bio
        ? shorten(bio, DESCRIPTION_MAX)
        : `${row.post_count} ${row.post_count === 1 ? 'post' : 'posts'} on LOLGram`,
      image,
    };
  }

  /** The image under `key` with its size, read from its header; null when it cannot be read. */
  private async sized(key: string, alt: string): Promise<Preview['image']> {
    try {
      const bytes = await this.images.get(key);
      if (!bytes) return null;
      const { width, height } = await sharp(bytes).metadata();
      return width && height ? { key, width, height, alt } : null;
    } catch (err) {
      this.logger.warn({ err, key }, 'link preview: image unreadable');
      return null;
    }
  }
}

function tags(preview: Preview, origin: string, pathname: string): string {
  const meta = (attribute: 'property' | 'name', name: string, value: string | number) =>
    `<meta ${attribute}="${name}" content="${escapeAttribute(String(value))}" />`;
  const image = preview.image;
  const imageAt = image ? `${origin}${imageUrl(image.key)}` : null;
  return [
    meta('property', 'og:site_name', 'LOLGram'),
    meta('property', 'og:type', preview.kind === 'post' ? 'article' : 'profile'),
    meta('property', 'og:url', `${origin}${pathname.replace(/\/$/, '')}`),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    ...(image && imageAt
      ? [
          meta('property', 'og:image', imageAt),
          meta('property', 'og:image:type', imageContentType(image.key)),
          meta('property', 'og:image:width', image.width),
          meta('property', 'og:image:height', image.height),
          meta('property', 'og:image:alt', image.alt),
        ]
      : []),
    meta(
      'name',
      'twitter:card',
      image && preview.kind === 'post' ? 'summary_large_image' : 'summary',
    ),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
    ...(image && imageAt
      ? [meta('name', 'twitter:image', imageAt), meta('name', 'twitter:image:alt', image.alt)]
      : []),
  ]
    .map((tag) => `  ${tag}`)
    .join('\n')
    .trimStart();
}
