/** Signing in to LOLGram: the sign-in dialog, and the wallet's place in the page. */
export { AuthDialog } from './AuthDialog';
export { WalletHost } from './wallet-host';
export { WalletSlot } from './WalletSlot';
