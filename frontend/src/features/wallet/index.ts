export { WalletProviders } from './WalletProviders';
export { WalletSection } from './WalletSection';
export { WalletAutoSignIn } from './WalletAutoSignIn';
export { signInWithWallet } from './sign-in';
