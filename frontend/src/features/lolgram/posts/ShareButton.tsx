import type { Post } from '@tapgram/shared';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../hooks/use-toast';
import { sharePost } from './share-post';

/** Shares the post's page: the system share sheet, or its link copied, said in a toast. */
export function ShareButton({ post, disabled = false }: { post: Post; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    try {
      const outcome = await sharePost(post);
      if (outcome === 'copied')
        toast({ title: 'Link copied', description: 'Paste it anywhere to share this post' });
      if (outcome === 'failed') {
        toast({ title: 'Error', description: 'Could not copy the link', variant: 'destructive' });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      aria-label="Share"
      aria-busy={busy || undefined}
      disabled={disabled || busy}
      onClick={() => void share()}
      className="flex h-11 w-11 items-center justify-center rounded-full text-slate-200 transition-transform hover:bg-slate-800 active:scale-90 disabled:opacity-40"
    >
      <Send className="h-6 w-6" aria-hidden="true" />
    </button>
  );
}
