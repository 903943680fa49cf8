import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { useEffect, useRef } from 'react';
import { useAuth } from '../lolgram/auth';

/** The library's own wallet button; signing in follows automatically once a wallet connects. */
export function WalletSection({ onSignedIn }: { onSignedIn?: () => void }) {
  const { state } = useAuth();
  const wasSignedIn = useRef(state.isAuthenticated);
  useEffect(() => {
    if (state.isAuthenticated && !wasSignedIn.current && state.authMethod === 'wallet')
      onSignedIn?.();
    wasSignedIn.current = state.isAuthenticated;
  }, [state.isAuthenticated, state.authMethod, onSignedIn]);
  return (
    <div className="flex flex-col items-center gap-2">
      <WalletMultiButton />
      <p className="text-xs text-slate-400">
        Connect a Solana wallet (devnet) and sign a free message to sign in.
      </p>
    </div>
  );
}
