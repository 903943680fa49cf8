import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-16 w-16 items-center justify-center rounded-full border-2 border-slate-700 text-slate-400">
        <Icon className="h-8 w-8" aria-hidden="true" />
      </span>
      <p className="text-lg font-bold">{title}</p>
      {children}
    </div>
  );
}
