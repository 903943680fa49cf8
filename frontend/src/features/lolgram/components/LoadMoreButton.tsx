import { Button } from '../../../components/ui/button';

interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The next page of a paged list (the feed, a profile's grid), while there is one. */
export function LoadMoreButton({ pages, className }: { pages: Pages; className?: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <Button
      variant="secondary"
      size="lg"
      className={className}
      disabled={pages.isFetchingNextPage}
      onClick={() => void pages.fetchNextPage()}
    >
      {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
    </Button>
  );
}
