import { useWallet } from '@solana/wallet-adapter-react';
import { useEffect } from 'react';
import { toast } from '../../hooks/use-toast';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../lolgram/auth';
import { signInWithWallet } from './sign-in';

// One attempt per connected address and page: React may run effects twice.
const attempted = new Set<string>();

/** When a wallet connects and nobody is signed in, signs that wallet in (spec: automatically). */
export function useWalletSignIn(): void {
  const { connected, publicKey, signIn, signMessage, disconnect } = useWallet();
  const auth = useAuth();
  const signedIn = auth.state.isAuthenticated;

  useEffect(() => {
    if (!connected || !publicKey || signedIn) return;
    const address = publicKey.toBase58();
    if (attempted.has(address)) return;
    attempted.add(address);
    signInWithWallet({ address, signIn, signMessage }, publicKey.toBytes())
      .then((user) => {
        auth.signedIn(user, 'wallet');
        toast({ title: 'Wallet connected', description: `Signed in as @${user.username}` });
      })
      .catch((error: unknown) => {
        console.error('Wallet sign-in failed', error);
        attempted.delete(address);
        toast({
          title: 'Wallet sign-in failed',
          description: errorMessage(error) || 'Failed to create wallet user',
          variant: 'destructive',
        });
        void disconnect();
      });
  }, [connected, publicKey, signedIn, signIn, signMessage, disconnect, auth]);
}
