import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { useEffect } from 'react';
import { onWalletSignedIn } from './sign-in-events';

/** The library's own wallet button; signing in follows on its own once a wallet connects. */
export function WalletSection({ onSignedIn }: { onSignedIn?: () => void }) {
  useEffect(() => (onSignedIn ? onWalletSignedIn(() => onSignedIn()) : undefined), [onSignedIn]);
  return (
    <div className="flex flex-col items-center gap-2">
      <WalletMultiButton />
      <p className="text-center text-xs text-slate-400">
        Connect a Solana wallet (devnet) and sign a free message to sign in. No transaction is sent.
      </p>
    </div>
  );
}
