import { useWallet } from '@solana/wallet-adapter-react';
import type { PublicKey } from '@solana/web3.js';
import { useEffect } from 'react';
import { toast } from '../../hooks/use-toast';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../lolgram/auth';
import { announceWalletSignIn } from './sign-in-events';
import { signInWithWallet } from './sign-in';

// Adapters make a new PublicKey on every connection, so remembering the object means one attempt
// per connection: not again after a LOLGram logout, nor on a remount or StrictMode's second run.
const attempted = new WeakSet<PublicKey>();

/** Spec: when a wallet is connected and nobody is signed in, a wallet session is created. */
export function useWalletSignIn(): void {
  const { wallet, connected, publicKey, disconnect } = useWallet();
  const { state, signedIn } = useAuth();
  const adapter = wallet?.adapter;

  useEffect(() => {
    if (!connected || !publicKey || !adapter || state.isAuthenticated) return;
    if (attempted.has(publicKey)) return;
    attempted.add(publicKey);
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
  }, [connected, publicKey, adapter, state.isAuthenticated, signedIn, disconnect]);
}
