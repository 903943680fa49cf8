import { Suspense } from 'react';
import { WalletSection } from '../wallet-lazy';
import { QuietBoundary } from './QuietBoundary';

/** The wallet sign-in, loaded on demand; if it cannot load, password sign-in still works. */
export function WalletSlot({ onSignedIn }: { onSignedIn?: () => void }) {
  return (
    <QuietBoundary what="Wallet sign-in">
      <Suspense
        fallback={<div className="h-11 animate-pulse rounded-xl bg-slate-800" aria-hidden="true" />}
      >
        <WalletSection onSignedIn={onSignedIn} />
      </Suspense>
    </QuietBoundary>
  );
}
