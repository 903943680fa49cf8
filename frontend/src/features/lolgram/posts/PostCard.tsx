import type { Post } from '@tapgram/shared';
import { Gem, Laugh, MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth';
import { useLol } from './useLol';
import { usePostViews } from './usePostViews';
import { useSave } from './useSave';
import { formatPostDate, pluralize } from '../lib/format';
import { IMAGE_SIZES } from '../lib/image-sizes';
import { useLoginPrompt } from '../ui/login-prompt';
import { LolButton } from './LolButton';
import { PostMenu } from './PostMenu';
import { SaveButton } from './SaveButton';
import { ShareButton } from './ShareButton';
import { CommentButton } from './CommentButton';
import { postPath } from './post-path';
import { SoonBadge } from '../ui/SoonBadge';
import { UserAvatar } from '../ui/UserAvatar';

/**
 * `priority`: the first card of a page, whose image is what the page shows first. `onDeleted`:
 * what follows when its author deletes it (its own page leaves it). `onComment`: on the post's
 * own page, where its thread is under it, the comment button moves to the comment box.
 */
export function PostCard({
  post,
  priority = false,
  onDeleted,
  onComment,
}: {
  post: Post;
  priority?: boolean;
  onDeleted?: () => void;
  onComment?: () => void;
}) {
  const { state } = useAuth();
  const lol = useLol(post);
  const save = useSave(post);
  const promptLol = useLoginPrompt('Please login to LOL posts');
  const promptSave = useLoginPrompt('Please login to save posts');
  // The author's own post that the public does not see yet: nobody can LOL, save or share it.
  const checking = post.moderation === 'checking';
  const notPublic = post.moderation !== undefined;
  const toggleLol = state.isAuthenticated ? lol.toggle : promptLol;
  const toggleSave = state.isAuthenticated ? save.toggle : promptSave;
  const viewRef = usePostViews<HTMLElement>(post.id);
  const profilePath = `/lolgram/${encodeURIComponent(post.username)}`;

  return (
    <article
      ref={viewRef}
      aria-label={`Post by ${post.username}`}
      data-post-id={post.id}
      // Focusable by script only: the focus lands here when the post above it is deleted.
      tabIndex={-1}
      className="@container border-b border-slate-800 pb-3 sm:rounded-2xl sm:border sm:bg-slate-900/60"
    >
      <header className="flex items-center gap-3 px-3 py-2">
        <Link to={profilePath} className="flex min-w-0 flex-1 items-center gap-3 rounded-xl py-1">
          <UserAvatar
            src={post.userAvatar}
            srcSet={post.userAvatarSrcset}
            size={36}
            username={post.username}
            className="h-9 w-9"
          />
          <span className="min-w-0">
            {/* The name is never cut: what shares the row gives way first. */}
            <span className="block text-sm font-semibold wrap-anywhere">{post.username}</span>
            {post.location && (
              <span className="flex min-w-0 items-center gap-1 text-xs text-slate-400">
                <MapPin className="h-3 w-3 shrink-0" aria-hidden="true" />
                <span className="truncate">{post.location.name}</span>
              </span>
            )}
          </span>
        </Link>
        {post.canMintNFT && (
          // On a phone only its icon, beside the author's name; the words where there is room.
          <button
            type="button"
            disabled
            title="Mint NFT (Coming Soon)"
            className="flex h-9 min-w-9 shrink-0 items-center justify-center gap-1.5 rounded-full border border-amber-400/40 text-xs font-semibold text-amber-300 @md:px-3"
          >
            <Gem className="h-4 w-4 @md:hidden" aria-hidden="true" />
            <span className="sr-only @md:not-sr-only">Mint NFT</span>
            <SoonBadge label="Coming Soon" className="sr-only @md:not-sr-only" />
          </button>
        )}
        <PostMenu post={post} onDeleted={onDeleted} />
      </header>

      <div className="relative aspect-square w-full overflow-hidden bg-slate-900">
        <img
          src={post.imageUrl}
          srcSet={post.imageSrcset}
          sizes={post.imageSrcset ? IMAGE_SIZES.card : undefined}
          alt={post.caption || `Post by ${post.username}`}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          className="h-full w-full object-cover"
          onDoubleClick={() => {
            if (!post.isLiked && !checking) toggleLol();
          }}
        />
        {lol.celebrating && (
          <span
            aria-hidden="true"
            data-testid="lol-animation"
            className="animate-lol pointer-events-none absolute inset-0 flex items-center justify-center drop-shadow-lg"
          >
            <Laugh className="h-24 w-24 fill-amber-300 text-amber-700" strokeWidth={1.75} />
          </span>
        )}
      </div>

      <div className="flex items-center gap-1 px-1.5 pt-1">
        <LolButton
          isLiked={post.isLiked}
          onToggle={toggleLol}
          busy={lol.pending}
          disabled={checking}
        />
        <CommentButton postId={post.id} onComment={onComment} disabled={notPublic} />
        <ShareButton post={post} disabled={notPublic} />
        <span className="flex-1" />
        {checking && (
          <span role="status" className="px-2 text-xs font-semibold text-amber-200">
            Checking…
          </span>
        )}
        <SaveButton
          isSaved={post.isSaved}
          onToggle={toggleSave}
          busy={save.pending}
          disabled={notPublic}
        />
      </div>

      <div className="grid gap-1 px-3 text-sm">
        <p className="font-semibold" aria-live="polite">
          {pluralize(post.lolCount, 'LOL')}
        </p>
        {post.caption && (
          <p className="wrap-anywhere">
            <Link to={profilePath} className="mr-1.5 font-semibold">
              {post.username}
            </Link>
            {post.caption}
          </p>
        )}
        {post.editModeration && (
          <p role="status" className="text-xs font-semibold text-amber-200">
            {post.editModeration === 'checking'
              ? 'Checking your edit… Others see the caption before it until then.'
              : 'Your edit is under review. Others see the caption before it until then.'}
          </p>
        )}
        {!onComment && post.commentCount > 0 && (
          <Link
            to={postPath(post.id)}
            className="justify-self-start text-slate-400 hover:text-slate-200"
          >
            {post.commentCount === 1
              ? 'View 1 comment'
              : `View all ${post.commentCount.toLocaleString()} comments`}
          </Link>
        )}
        {!onComment &&
          post.firstComments?.map((comment) => (
            <p key={comment.id} className="wrap-anywhere">
              <span className="mr-1.5 font-semibold">{comment.username}</span>
              {comment.text}
            </p>
          ))}
        <time dateTime={post.createdAt} className="text-xs text-slate-400 uppercase">
          {formatPostDate(post.createdAt)}
        </time>
      </div>
    </article>
  );
}
