import { useWalletSignIn } from './useWalletSignIn';

export function WalletAutoSignIn() {
  useWalletSignIn();
  return null;
}
