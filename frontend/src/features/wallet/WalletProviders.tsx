import type { WalletError } from '@solana/wallet-adapter-base';
import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom';
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react';
import { clusterApiUrl, type ConnectionConfig } from '@solana/web3.js';
import { WALLET_NETWORK } from '@tapgram/shared';
import { useMemo, type ReactNode } from 'react';
import { WalletChooserProvider } from './WalletChooserProvider';
import './wallet-adapter.css';

const ENDPOINT = clusterApiUrl(WALLET_NETWORK);
const CONNECTION_CONFIG: ConnectionConfig = { commitment: 'finalized' };

function logWalletError(error: WalletError) {
  console.error('Wallet error', error);
}

/** Solana on devnet: one adapter (Wallet Standard wallets add themselves), auto-connect on. */
export function WalletProviders({ children }: { children: ReactNode }) {
  const wallets = useMemo(() => [new PhantomWalletAdapter()], []);
  return (
    <ConnectionProvider endpoint={ENDPOINT} config={CONNECTION_CONFIG}>
      <WalletProvider wallets={wallets} autoConnect onError={logWalletError}>
        <WalletChooserProvider>{children}</WalletChooserProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}
