import { MessageCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { postPath } from './post-path';

const LOOK =
  'relative flex h-11 min-w-11 items-center justify-center rounded-full px-1 text-slate-200 hover:text-white focus-visible:outline-2 focus-visible:outline-amber-300 disabled:text-slate-600';

/**
 * The comment button: on the post's own page it moves to the comment box (`onComment`); on a card
 * elsewhere it opens the post's page with the box focused.
 */
export function CommentButton({
  postId,
  onComment,
  disabled = false,
}: {
  postId: string;
  onComment?: () => void;
  disabled?: boolean;
}) {
  const icon = <MessageCircle className="h-6 w-6" aria-hidden="true" />;
  if (onComment || disabled) {
    return (
      <button
        type="button"
        aria-label="Comment"
        onClick={onComment}
        disabled={disabled}
        className={LOOK}
      >
        {icon}
      </button>
    );
  }
  return (
    <Link
      to={postPath(postId)}
      state={{ focusComment: true }}
      aria-label="Comment"
      className={LOOK}
    >
      {icon}
    </Link>
  );
}
