import { useEffect, useRef } from 'react';
import { throwIfResNotOk } from '../../../lib/api';
import { createViewTracker, type ViewTracker } from './view-tracker';

const FLUSH_AFTER_MS = 5_000;

async function reportViews(postIds: string[]): Promise<void> {
  // keepalive lets the last batch leave while the page is being hidden or closed.
  const res = await fetch('/api/lolgram/posts/views', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ postIds }),
    credentials: 'include',
    keepalive: true,
  });
  await throwIfResNotOk(res);
}

let tracker: ViewTracker | null = null;

function viewTracker(): ViewTracker {
  if (!tracker) {
    const created = createViewTracker(reportViews, FLUSH_AFTER_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') created.flush();
    });
    tracker = created;
  }
  return tracker;
}

/** A ref for a post card: the post is reported as viewed once half of it has been on screen. */
export function usePostViews<T extends Element>(postId: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return viewTracker().observe(element, postId);
  }, [postId]);
  return ref;
}
