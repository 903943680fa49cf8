import { lazyDialog } from '../../../lib/lazy-page';

/** Signing in to LOLGram: the sign-in dialog, and the wallet's place in the page. */

/** The sign-in dialog, whose code (with the dialog's and the form's) loads when it first opens. */
export const AuthDialog = lazyDialog(() => import('./AuthDialog').then((m) => m.AuthDialog));
export { WalletHost } from './wallet-host';
export { WalletSlot } from './WalletSlot';
