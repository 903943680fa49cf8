import { useWallet } from '@solana/wallet-adapter-react';
import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import type { SignInProof } from '@tapgram/shared';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { proveWallet } from './sign-in';
import { requestSignInInput } from './wallet-account-api';

/**
 * A fresh signature of the server's request by the connected wallet, for an account setting
 * (link this wallet, confirm with it): "Select Wallet" until one is connected, then `label`.
 */
export function WalletProofButton({
  label,
  onProof,
}: {
  label: string;
  onProof: (proof: SignInProof) => void;
}) {
  const { wallet, publicKey, connected } = useWallet();
  const [signing, setSigning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const adapter = wallet?.adapter;
  if (!connected || !publicKey || !adapter) return <WalletMultiButton />;
  const address = publicKey.toBase58();
  const sign = async () => {
    setSigning(true);
    setProblem(null);
    try {
      onProof(await proveWallet(adapter, await requestSignInInput(address)));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The wallet did not sign');
    } finally {
      setSigning(false);
    }
  };
  return (
    <div className="grid gap-1.5">
      <Button type="button" variant="secondary" className="h-11" disabled={signing} onClick={sign}>
        {signing
          ? 'Waiting for the wallet...'
          : `${label} (${address.slice(0, 4)}…${address.slice(-4)})`}
      </Button>
      {problem && (
        <p role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}
