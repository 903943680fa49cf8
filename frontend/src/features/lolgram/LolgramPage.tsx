import { usePrefetchInfiniteQuery } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { AuthProvider } from './auth';
import { QuietBoundary } from './components/QuietBoundary';
import { feedQueryOptions } from './hooks/useFeed';
import { LolgramApp } from './LolgramApp';
import { WalletAutoSignIn, WalletProviders } from './wallet-lazy';

function PageLoading() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-slate-400">
      Loading your LOLGram feed...
    </div>
  );
}

/** The wallet providers wrap the app; should their chunk fail, the app runs without a wallet. */
function WithWallet({ children, loading }: { children: ReactNode; loading: ReactNode }) {
  return (
    <QuietBoundary what="Wallet" fallback={children}>
      <Suspense fallback={loading}>
        <WalletProviders>
          <QuietBoundary what="Wallet auto sign-in">
            <Suspense fallback={null}>
              <WalletAutoSignIn />
            </Suspense>
          </QuietBoundary>
          {children}
        </WalletProviders>
      </Suspense>
    </QuietBoundary>
  );
}

/** What every LOLGram screen (and the admin page's sign-in) runs inside: auth and the wallet. */
export function LolgramProviders({
  children,
  loading = <PageLoading />,
}: {
  children: ReactNode;
  loading?: ReactNode;
}) {
  return (
    <AuthProvider>
      <WithWallet loading={loading}>{children}</WithWallet>
    </AuthProvider>
  );
}

export function LolgramPage() {
  usePrefetchInfiniteQuery(feedQueryOptions);
  return (
    <LolgramProviders>
      <LolgramApp />
    </LolgramProviders>
  );
}
