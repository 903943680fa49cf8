import { WalletAdapterNetwork } from '@solana/wallet-adapter-base';
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react';
import { WalletModalProvider } from '@solana/wallet-adapter-react-ui';
import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom';
import { clusterApiUrl } from '@solana/web3.js';
import { useMemo, type ReactNode } from 'react';
import './wallet-adapter.css';

const NETWORK = WalletAdapterNetwork.Devnet;

/** Solana on devnet: one adapter (Wallet Standard wallets appear on their own), auto-connect. */
export function WalletProviders({ children }: { children: ReactNode }) {
  const endpoint = useMemo(() => clusterApiUrl(NETWORK), []);
  const wallets = useMemo(() => [new PhantomWalletAdapter()], []);
  return (
    <ConnectionProvider endpoint={endpoint} config={{ commitment: 'finalized' }}>
      <WalletProvider
        wallets={wallets}
        autoConnect
        onError={(error) => console.error('Wallet error', error)}
      >
        <WalletModalProvider>{children}</WalletModalProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}
