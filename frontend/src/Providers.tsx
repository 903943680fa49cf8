import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from './components/ui/toaster';
import { HydrationProvider } from './lib/hydration';
import { createQueryClient } from './lib/query-client';

export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <HydrationProvider>{children}</HydrationProvider>
      <Toaster />
    </QueryClientProvider>
  );
}
