import type { Post } from '@tapgram/shared';
import { Laugh, MessageCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { IMAGE_SIZES } from '../lib/image-sizes';
import { postPath } from '../posts';

/** Shown on the author's own posts that the public does not see yet. */
const REVIEW_LABELS = { checking: 'Checking…', held: 'Under review' } as const;

/**
 * A 3-column grid of square thumbnails, each opening its post; with `showStats`, LOL and comment
 * counts on hover.
 */
export function PostGrid({ posts, showStats = false }: { posts: Post[]; showStats?: boolean }) {
  return (
    <ul className="grid grid-cols-3 gap-0.5" aria-label="Posts">
      {posts.map((post) => (
        <li key={post.id} className="aspect-square bg-slate-900">
          <Link
            to={postPath(post.id)}
            className="group relative block h-full w-full overflow-hidden focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-300"
          >
            <img
              src={post.thumbnailUrl}
              srcSet={post.thumbnailSrcset}
              sizes={post.thumbnailSrcset ? IMAGE_SIZES.tile : undefined}
              alt={post.caption || `Post by ${post.username}`}
              loading="lazy"
              className="h-full w-full object-cover transition-transform group-hover:scale-105"
            />
            {post.moderation && (
              <span className="absolute top-1.5 left-1.5 rounded-full bg-slate-950/85 px-2 py-0.5 text-[11px] font-semibold text-amber-200">
                {REVIEW_LABELS[post.moderation]}
              </span>
            )}
            {showStats && (
              <div className="absolute inset-0 flex items-center justify-center gap-4 bg-black/60 text-sm font-bold opacity-0 transition-opacity group-hover:opacity-100">
                <span className="flex items-center gap-1">
                  <Laugh className="h-4 w-4" aria-hidden="true" />
                  <span className="sr-only">LOLs:</span>
                  {post.lolCount}
                </span>
                <span className="flex items-center gap-1">
                  <MessageCircle className="h-4 w-4" aria-hidden="true" />
                  <span className="sr-only">Comments:</span>
                  {post.commentCount}
                </span>
              </div>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
