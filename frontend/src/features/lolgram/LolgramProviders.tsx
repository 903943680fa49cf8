import type { ReactNode } from 'react';
import { LolgramAuth } from './LolgramAuth';
import { WalletHost } from './account';

/**
 * What every LOLGram screen (and the admin page's sign-in) runs inside: auth, with the user's
 * posts followed live, and the wallet, whose code loads only when wallet UI needs it (see
 * WalletHost).
 */
export function LolgramProviders({ children }: { children: ReactNode }) {
  return (
    <LolgramAuth>
      <WalletHost>{children}</WalletHost>
    </LolgramAuth>
  );
}
