import { type Post } from '@tapgram/shared';
import { Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth';
import { UserAvatar } from '../ui/UserAvatar';
import { STORY_BUBBLES } from '../../../lib/ui-constants';

const ring = 'rounded-full bg-gradient-to-tr from-amber-300 via-orange-500 to-pink-500 p-[2px]';
const label = 'w-16 truncate text-center text-xs text-slate-300';

/** The authors of the first eight posts, each once, after the viewer's own bubble. */
function storyAuthors(posts: Post[]): Post[] {
  const seen = new Set<string>();
  return posts.slice(0, STORY_BUBBLES).filter((post) => {
    if (seen.has(post.userId)) return false;
    seen.add(post.userId);
    return true;
  });
}

export function StoryBubbles({ posts, onYourStory }: { posts: Post[]; onYourStory: () => void }) {
  const { state } = useAuth();
  return (
    <nav aria-label="Stories" className="border-b border-slate-800">
      <ul className="flex gap-3 overflow-x-auto px-3 py-3 [scrollbar-width:none]">
        <li className="flex flex-col items-center gap-1">
          <button
            type="button"
            onClick={onYourStory}
            className="relative rounded-full"
            aria-label="Your story: create a post"
          >
            <UserAvatar
              src={state.user?.avatar}
              srcSet={state.user?.avatarSrcset}
              size={64}
              username={state.user?.username ?? 'You'}
              className="h-16 w-16 border-2 border-slate-700"
            />
            <span className="absolute right-0 bottom-0 flex h-5 w-5 items-center justify-center rounded-full border-2 border-slate-950 bg-amber-400 text-slate-950">
              <Plus className="h-3 w-3" aria-hidden="true" />
            </span>
          </button>
          <span className={label}>Your story</span>
        </li>
        {storyAuthors(posts).map((post) => (
          <li key={post.userId}>
            <Link
              to={`/lolgram/${encodeURIComponent(post.username)}`}
              className="flex flex-col items-center gap-1 rounded-xl"
            >
              <span className={ring}>
                <UserAvatar
                  src={post.userAvatar}
                  srcSet={post.userAvatarSrcset}
                  size={60}
                  username={post.username}
                  className="h-[60px] w-[60px] border-2 border-slate-950"
                />
              </span>
              <span className={label}>{post.username}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
