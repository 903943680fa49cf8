import { usePrefetchInfiniteQuery } from '@tanstack/react-query';
import { feedQueryOptions } from './post-lists';
import { LolgramApp } from './LolgramApp';
import { LolgramProviders } from './LolgramProviders';

export function LolgramPage() {
  usePrefetchInfiniteQuery(feedQueryOptions);
  return (
    <LolgramProviders>
      <LolgramApp />
    </LolgramProviders>
  );
}
