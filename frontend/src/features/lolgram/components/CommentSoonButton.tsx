import { MessageCircle } from 'lucide-react';
import { SoonBadge } from './SoonBadge';

/** Comments are not here yet: the button says so. */
export function CommentSoonButton() {
  return (
    <button
      type="button"
      disabled
      aria-label="Comment (coming soon)"
      className="relative flex h-11 min-w-11 items-center justify-center gap-1 rounded-full px-1 text-slate-500"
    >
      <MessageCircle className="h-6 w-6" aria-hidden="true" />
      <SoonBadge />
    </button>
  );
}
