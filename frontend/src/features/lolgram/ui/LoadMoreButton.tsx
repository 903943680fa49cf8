import { useEffect } from 'react';
import { useInView } from 'react-intersection-observer';
import { Button } from '../../../components/ui/button';

interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** A page that failed stops the scrolling: the button reads it again. */
  isFetchNextPageError?: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The next page of a paged list (the feed, Explore, the map, a profile's grids), while there is
 * one: read as the button scrolls near the screen, or when it is pressed.
 */
export function LoadMoreButton({ pages, className }: { pages: Pages; className?: string }) {
  // Half a screen ahead, so that the next page is usually there before it is reached.
  const { ref, inView } = useInView({ rootMargin: '0px 0px 50% 0px', fallbackInView: false });
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pages;
  useEffect(() => {
    if (inView && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage();
    }
  }, [inView, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  if (!hasNextPage) return null;
  return (
    <Button
      ref={ref}
      variant="secondary"
      size="lg"
      className={className}
      disabled={isFetchingNextPage}
      onClick={() => void fetchNextPage()}
    >
      {isFetchingNextPage ? 'Loading...' : 'Load more'}
    </Button>
  );
}
