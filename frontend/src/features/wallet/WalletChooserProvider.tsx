import { WalletModalContext } from '@solana/wallet-adapter-react-ui';
import { useMemo, useState, type ReactNode } from 'react';
import { WalletChooser } from './WalletChooser';

/**
 * Stands in for the library's WalletModalProvider: its buttons ("Select Wallet", "Change wallet")
 * open our WalletChooser through the same context.
 */
export function WalletChooserProvider({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(false);
  const value = useMemo(() => ({ visible, setVisible }), [visible]);
  return (
    <WalletModalContext.Provider value={value}>
      {children}
      <WalletChooser />
    </WalletModalContext.Provider>
  );
}
