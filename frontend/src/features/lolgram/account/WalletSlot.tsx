import { Suspense, useEffect, useRef, useState } from 'react';
import { useWalletHost, WalletPending, type WalletProve, type WalletSlotKind } from './wallet-host';
import { WalletButton, WalletProofButton, WalletSection } from './wallet-lazy';
import { QuietBoundary } from '../ui/QuietBoundary';

/**
 * The wallet sign-in (or, `kind` 'account', a wallet user's own wallet), loaded on demand; if it
 * cannot load, password sign-in still works. Inside a WalletHost (the LOLGram pages) the host
 * renders the button here; elsewhere it renders in place, under the wallet providers its page put
 * around it.
 */
export function WalletSlot({
  onSignedIn,
  kind = 'sign-in',
  prove,
}: {
  onSignedIn?: () => void;
  kind?: WalletSlotKind;
  prove?: WalletProve;
}) {
  const register = useWalletHost();
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  // The latest callback, so that a new one on each render does not register the slot again.
  const latest = useRef(onSignedIn);
  useEffect(() => {
    latest.current = onSignedIn;
  }, [onSignedIn]);
  useEffect(() => {
    if (!register || !element) return;
    return register({ element, kind, prove, onSignedIn: () => latest.current?.() });
  }, [register, element, kind, prove]);

  if (register) return <div ref={setElement} data-testid="wallet-slot" />;
  return (
    <QuietBoundary what="Wallet sign-in">
      <Suspense fallback={<WalletPending />}>
        {kind === 'prove' && prove ? (
          <WalletProofButton {...prove} />
        ) : kind === 'account' ? (
          <WalletButton />
        ) : (
          <WalletSection onSignedIn={onSignedIn} />
        )}
      </Suspense>
    </QuietBoundary>
  );
}
