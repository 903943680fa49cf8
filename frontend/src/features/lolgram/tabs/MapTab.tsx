import { Laugh, MapPin, Map as MapIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card } from '../../../components/ui/card';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { UserAvatar } from '../ui/UserAvatar';
import { useLocatedCount, useLocatedPosts } from '../post-lists';
import { pluralize } from '../lib/format';

/** Every post with a location: the server's count of them, and their cards as the user scrolls. */
export function MapTab() {
  const pages = useLocatedPosts();
  const count = useLocatedCount();
  const located = pages.posts;

  return (
    <section aria-labelledby="map-title" className="flex flex-col gap-4 p-4">
      <div className="flex flex-col items-center gap-2 rounded-2xl border border-slate-800 bg-gradient-to-br from-slate-900 to-slate-800 px-6 py-10 text-center">
        <MapIcon className="h-12 w-12 text-amber-300" aria-hidden="true" />
        <h2 id="map-title" className="text-xl font-bold">
          Interactive Map
        </h2>
        <p className="text-sm text-slate-400" aria-live="polite">
          {count.data ? `${pluralize(count.data.count, 'post')} with a location` : '\u00a0'}
        </p>
      </div>
      <ul className="grid grid-cols-1 gap-3">
        {located.map((post) => (
          <li key={post.id}>
            <Card className="flex items-center gap-3 p-3">
              <img
                src={post.thumbnailUrl}
                srcSet={post.thumbnailSrcset}
                sizes="64px"
                alt={post.caption || `Post by ${post.username}`}
                loading="lazy"
                className="h-16 w-16 shrink-0 rounded-xl object-cover"
              />
              <div className="min-w-0 flex-1">
                <Link
                  to={`/lolgram/${encodeURIComponent(post.username)}`}
                  className="flex items-center gap-2 text-sm font-semibold"
                >
                  <UserAvatar
                    src={post.userAvatar}
                    srcSet={post.userAvatarSrcset}
                    size={24}
                    username={post.username}
                    className="h-6 w-6"
                  />
                  <span className="truncate">{post.username}</span>
                </Link>
                <p className="mt-1 flex min-w-0 items-center gap-1 text-xs text-slate-400">
                  <MapPin className="h-3 w-3 shrink-0" aria-hidden="true" />
                  <span className="truncate">{post.location?.name}</span>
                </p>
              </div>
              <span className="flex items-center gap-1 text-sm text-amber-300">
                <Laugh className="h-4 w-4" aria-hidden="true" />
                <span className="sr-only">LOLs:</span>
                {post.lolCount}
              </span>
            </Card>
          </li>
        ))}
      </ul>
      <LoadMoreButton pages={pages} />
    </section>
  );
}
