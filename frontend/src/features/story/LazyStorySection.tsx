import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useHydrated } from '../../lib/hydration';

const StorySection = lazy(() =>
  import('./StorySection').then((m) => ({ default: m.StorySection })),
);

/** How far below the screen the story starts loading: it is there by the time one scrolls to it. */
const AHEAD = '200px';

/**
 * The story sits below the game: its code loads as it comes near the screen, not with the page,
 * which a player opens to tap; and not while `held` (behind the welcome dialog, nobody reads it).
 */
export function LazyStorySection({ held = false }: { held?: boolean }) {
  const place = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  // Without IntersectionObserver (old browsers) the story loads with the page, once hydrated: the
  // page's HTML, rendered at build time, only holds its place.
  const hydrated = useHydrated();
  const near = seen || (hydrated && typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
    // Not while hydrating either: until then the page cannot know whether it is `held`.
    if (near || held || !hydrated || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, held, hydrated]);
  return (
    <div ref={place} className={near ? undefined : 'min-h-96'}>
      {near && (
        <Suspense fallback={<div className="min-h-96" aria-busy="true" />}>
          <StorySection />
        </Suspense>
      )}
    </div>
  );
}
