import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';

/**
 * The wallet of a signed-in wallet user: the library's button, which once connected shows the
 * address shortened to its first and last 4 characters and a menu of Copy address ("Copied" for
 * 400 ms), Change wallet and Disconnect.
 */
export function WalletButton() {
  return <WalletMultiButton />;
}
