import { cn } from '../../../lib/cn';

export function SoonBadge({ label = 'Soon', className }: { label?: string; className?: string }) {
  return (
    <span
      className={cn(
        'rounded-full bg-amber-400/15 px-1.5 py-0.5 text-[10px] leading-none font-bold tracking-wide text-amber-300 uppercase',
        className,
      )}
    >
      {label}
    </span>
  );
}
