import { Laugh } from 'lucide-react';
import { cn } from '../../../lib/cn';

export function LolButton({
  isLiked,
  onToggle,
  busy,
  disabled = false,
}: {
  isLiked: boolean;
  onToggle: () => void;
  busy: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      aria-pressed={isLiked}
      aria-label={isLiked ? 'Remove LOL' : 'LOL'}
      aria-busy={busy || undefined}
      onClick={onToggle}
      disabled={disabled}
      className={cn(
        'flex h-11 w-11 items-center justify-center rounded-full transition-transform hover:bg-slate-800 active:scale-90 disabled:opacity-40',
        isLiked ? 'text-amber-300' : 'text-slate-200',
      )}
    >
      <Laugh className={cn('h-7 w-7', isLiked && 'fill-amber-400/30')} aria-hidden="true" />
    </button>
  );
}
