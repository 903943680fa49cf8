import { Loader2 } from 'lucide-react';

/** A tab whose code is still on its way. */
export function TabLoading() {
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-16 text-slate-400">
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
      Loading...
    </p>
  );
}
