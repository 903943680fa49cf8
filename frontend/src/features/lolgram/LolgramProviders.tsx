import type { ReactNode } from 'react';
import { AuthProvider } from '../auth';
import { WalletHost } from './wallet-host';

/**
 * What every LOLGram screen (and the admin page's sign-in) runs inside: auth, and the wallet,
 * whose code loads only when wallet UI needs it (see WalletHost).
 */
export function LolgramProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      <WalletHost>{children}</WalletHost>
    </AuthProvider>
  );
}
