import { Bookmark } from 'lucide-react';
import { cn } from '../../../lib/cn';

export function SaveButton({
  isSaved,
  onToggle,
  busy,
  disabled = false,
}: {
  isSaved: boolean;
  onToggle: () => void;
  busy: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      aria-pressed={isSaved}
      aria-label={isSaved ? 'Remove from Saved' : 'Save'}
      aria-busy={busy || undefined}
      onClick={onToggle}
      disabled={disabled}
      className={cn(
        'flex h-11 w-11 items-center justify-center rounded-full transition-transform hover:bg-slate-800 active:scale-90 disabled:opacity-40',
        isSaved ? 'text-amber-300' : 'text-slate-200',
      )}
    >
      <Bookmark className={cn('h-6 w-6', isSaved && 'fill-amber-300')} aria-hidden="true" />
    </button>
  );
}
