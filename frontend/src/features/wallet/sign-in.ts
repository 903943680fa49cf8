import type { SolanaSignInInput, SolanaSignInOutput } from '@solana/wallet-standard-features';
import type { PublicKey } from '@solana/web3.js';
import type { LolgramUser, SignInInput, SignInProof } from '@tapgram/shared';
import { Buffer } from 'buffer';
import { signInMessage } from './sign-in-message';
import {
  createWalletUser,
  findWalletUser,
  loginWalletUser,
  requestSignInInput,
} from './wallet-account-api';

/** What sign-in needs of a wallet adapter: its key, and signIn or signMessage. */
export interface SignInWallet {
  publicKey: Pick<PublicKey, 'toBase58' | 'toBytes'> | null;
  signIn?: (input: SolanaSignInInput) => Promise<SolanaSignInOutput>;
  signMessage?: (message: Uint8Array) => Promise<Uint8Array>;
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * The wallet's signature over the server's request: through the wallet's own Sign-In With Solana
 * (solana:signIn) where it has it, else signMessage over the same message text.
 */
export async function proveWallet(wallet: SignInWallet, input: SignInInput): Promise<SignInProof> {
  if ('signIn' in wallet && wallet.signIn) {
    const output = await wallet.signIn(input);
    return {
      input,
      output: {
        publicKey: base64(new Uint8Array(output.account.publicKey)),
        signedMessage: base64(output.signedMessage),
        signature: base64(output.signature),
      },
    };
  }
  if (!wallet.signMessage || !wallet.publicKey) {
    throw new Error('This wallet cannot sign messages');
  }
  const message = signInMessage(input);
  const signature = await wallet.signMessage(message);
  return {
    input,
    output: {
      publicKey: base64(wallet.publicKey.toBytes()),
      signedMessage: base64(message),
      signature: base64(signature),
    },
  };
}

/**
 * Signs the connected wallet in to LOLGram: the server's nonce, the wallet's signature, then the
 * wallet account's sign-in, or the account's creation when the address has none. A proof is good
 * for one use, so it goes to exactly one of the two.
 */
export async function signInWithWallet(wallet: SignInWallet): Promise<LolgramUser> {
  if (!wallet.publicKey) throw new Error('Connect a wallet first');
  const address = wallet.publicKey.toBase58();
  const input = await requestSignInInput(address);
  const proof = await proveWallet(wallet, input);
  const existing = await findWalletUser(address);
  return existing ? loginWalletUser(proof) : createWalletUser(address, proof);
}
