/** Collects the posts that came into view and reports them in batches, each post once. */
export interface ViewTracker {
  observe: (element: Element, postId: string) => () => void;
  flush: () => void;
}

const MAX_BATCH = 100;
const VISIBLE_RATIO = 0.5;

export function createViewTracker(
  send: (postIds: string[]) => Promise<void>,
  flushAfterMs: number,
): ViewTracker {
  const queue = new Set<string>();
  const seen = new Set<string>();
  const targets = new Map<Element, string>();
  let observer: IntersectionObserver | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const ids = [...queue];
    queue.clear();
    for (let start = 0; start < ids.length; start += MAX_BATCH) {
      send(ids.slice(start, start + MAX_BATCH)).catch((error: unknown) =>
        console.warn('Post views were not reported', error),
      );
    }
  };

  const onEntries = (entries: IntersectionObserverEntry[]) => {
    for (const entry of entries) {
      const postId = targets.get(entry.target);
      if (!entry.isIntersecting || !postId || seen.has(postId)) continue;
      seen.add(postId);
      queue.add(postId);
      observer?.unobserve(entry.target);
      targets.delete(entry.target);
    }
    if (queue.size > 0 && !timer) timer = setTimeout(flush, flushAfterMs);
  };

  return {
    flush,
    observe(element, postId) {
      if (seen.has(postId) || typeof IntersectionObserver === 'undefined') return () => {};
      observer ??= new IntersectionObserver(onEntries, { threshold: VISIBLE_RATIO });
      targets.set(element, postId);
      observer.observe(element);
      return () => {
        observer?.unobserve(element);
        targets.delete(element);
      };
    },
  };
}
