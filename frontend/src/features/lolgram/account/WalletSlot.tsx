import { Suspense, useEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import {
  useWalletHost,
  WalletPending,
  WalletUnavailable,
  type WalletProve,
  type WalletSlotKind,
} from './wallet-host';
import { WalletButton, WalletProofButton, WalletSection } from './wallet-lazy';
import { QuietBoundary } from '../ui/QuietBoundary';

/** The sign-in button's place: as tall as the button (48 px), which it keeps while it loads. */
const SIGN_IN_PLACE = 'flex h-12 w-full items-center justify-center';

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

  const part = register ? (
    <div
      ref={setElement}
      data-testid="wallet-slot"
      className={cn(kind === 'sign-in' && SIGN_IN_PLACE)}
    />
  ) : (
    <QuietBoundary what="Wallet sign-in" fallback={<WalletUnavailable kind={kind} />}>
      <Suspense fallback={<WalletPending kind={kind} />}>
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
  if (kind !== 'sign-in') return part;
  // The button's place keeps its height, and the note shows at once: nothing below the slot moves
  // as the wallet's code arrives (the sign-in dialog's switch and fields would move under a finger).
  return (
    <div className="flex flex-col items-center gap-2">
      {register ? part : <div className={SIGN_IN_PLACE}>{part}</div>}
      <p className="text-center text-xs text-slate-400">
        Connect a Solana wallet (devnet) and sign a free message to sign in. No transaction is sent.
      </p>
    </div>
  );
}
