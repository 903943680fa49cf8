import { useWallet } from '@solana/wallet-adapter-react';
import { useEffect, useRef } from 'react';
import { toast } from '../../hooks/use-toast';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../auth';
import { announceWalletSignIn } from './sign-in-events';
import { signInWithWallet } from './sign-in';

// The address already tried on the current connection. Adapters hand out a new PublicKey object
// on connect and again on the account's change event, so the address is the key, and a module
// variable keeps StrictMode's second run from starting a second sign-in.
let attemptedAddress: string | null = null;

/**
 * Spec: when a wallet is connected and nobody is signed in, a wallet session is created; once
 * per connection. Ending a wallet session disconnects the wallet, so that logging out holds; and
 * the other way round, disconnecting the wallet of a wallet session (the wallet button's
 * Disconnect, or Change wallet) signs it out, so that the header never shows a signed-in user
 * beside "Select Wallet".
 */
export function useWalletSignIn(): void {
  const { wallet, connected, publicKey, disconnect } = useWallet();
  const { state, signedIn, logout } = useAuth();
  const adapter = wallet?.adapter;
  const address = connected ? (publicKey?.toBase58() ?? null) : null;
  const walletSession = useRef(false);
  const connectedAddress = useRef<string | null>(null);

  useEffect(() => {
    if (!address) attemptedAddress = null;
    const was = connectedAddress.current;
    connectedAddress.current = address;
    if (was && !address && walletSession.current) {
      void logout();
      toast({ title: 'Signed out', description: 'The wallet was disconnected.' });
    }
  }, [address, logout]);

  useEffect(() => {
    const isWalletSession = state.isAuthenticated && state.authMethod === 'wallet';
    if (walletSession.current && !state.isAuthenticated && address) {
      void disconnect().catch(() => undefined);
    }
    walletSession.current = isWalletSession;
  }, [state.isAuthenticated, state.authMethod, address, disconnect]);

  useEffect(() => {
    if (!address || !adapter || state.isAuthenticated) return;
    if (attemptedAddress === address) return;
    attemptedAddress = address;
    signInWithWallet(adapter)
      .then((user) => {
        signedIn(user, 'wallet');
        toast({ title: 'Wallet connected', description: `Signed in as @${user.username}` });
        announceWalletSignIn(user);
      })
      .catch((error: unknown) => {
        console.error('Wallet sign-in failed', error);
        toast({
          title: 'Wallet sign-in failed',
          description: errorMessage(error) || 'The wallet could not sign in.',
          variant: 'destructive',
        });
        void disconnect().catch(() => undefined);
      });
  }, [address, adapter, state.isAuthenticated, signedIn, disconnect]);
}
