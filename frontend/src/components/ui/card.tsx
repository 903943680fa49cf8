import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('rounded-2xl border border-slate-800 bg-slate-900/80 p-4 shadow-lg', className)}
      {...props}
    />
  );
}
