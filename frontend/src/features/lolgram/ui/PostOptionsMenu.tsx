import { MoreHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';

export interface PostMenuItem {
  label: string;
  onSelect: () => void;
  /** An action that removes something: drawn in red. */
  destructive?: boolean;
}

/**
 * A small menu of options (a post's, a profile's) behind a "⋯" button named `label`; it closes on
 * Escape, outside clicks and choice.
 */
export function PostOptionsMenu({
  items,
  label = 'Post options',
}: {
  items: PostMenuItem[];
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="flex h-11 w-11 items-center justify-center rounded-full text-slate-300 hover:bg-slate-800"
      >
        <MoreHorizontal className="h-5 w-5" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          className="absolute top-full right-0 z-20 mt-1 min-w-44 overflow-hidden rounded-xl border border-slate-700 bg-slate-900 py-1 shadow-xl"
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={cn(
                'block w-full px-4 py-3 text-left text-sm hover:bg-slate-800 focus-visible:bg-slate-800',
                item.destructive ? 'text-red-400' : 'text-slate-100',
              )}
              onClick={() => {
                setOpen(false);
                // Back to the menu's button first: a dialog the choice opens returns it there.
                trigger.current?.focus();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
