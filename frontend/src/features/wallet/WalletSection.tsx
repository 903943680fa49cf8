import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { useEffect } from 'react';
import { onWalletSignedIn } from './sign-in-events';

/**
 * The library's own wallet button; signing in follows on its own once a wallet connects. Its note
 * is the sign-in slot's, which shows it while this loads.
 */
export function WalletSection({ onSignedIn }: { onSignedIn?: () => void }) {
  useEffect(() => (onSignedIn ? onWalletSignedIn(() => onSignedIn()) : undefined), [onSignedIn]);
  return <WalletMultiButton />;
}
