export { WalletProviders } from './WalletProviders';
export { WalletSection } from './WalletSection';
export { WalletButton } from './WalletButton';
export { WalletAutoSignIn } from './WalletAutoSignIn';
export { signInWithWallet } from './sign-in';
export { WalletProofButton } from './WalletProofButton';
