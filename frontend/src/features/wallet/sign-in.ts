import { createSignInMessage } from '@solana/wallet-standard-util';
import type { SolanaSignInInput, SolanaSignInOutput } from '@solana/wallet-standard-features';
import {
  walletUsername,
  type LolgramUser,
  type SignInInput,
  type SignInProof,
} from '@tapgram/shared';
import { apiRequest, errorMessage } from '../../lib/api';

export interface SigningWallet {
  address: string;
  /** The wallet-standard `solana:signIn` feature, where the wallet has it. */
  signIn?: (input: SolanaSignInInput) => Promise<SolanaSignInOutput>;
  signMessage?: (message: Uint8Array) => Promise<Uint8Array>;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Has the wallet sign the server's Sign-In With Solana request: signIn where it can, signMessage otherwise. */
export async function proveWallet(
  wallet: SigningWallet,
  input: SignInInput,
  publicKey: Uint8Array,
): Promise<SignInProof> {
  if (wallet.signIn) {
    const output = await wallet.signIn(input);
    return {
      input,
      output: {
        publicKey: toBase64(new Uint8Array(output.account.publicKey)),
        signedMessage: toBase64(output.signedMessage),
        signature: toBase64(output.signature),
      },
    };
  }
  if (!wallet.signMessage) throw new Error('This wallet cannot sign messages');
  const message = createSignInMessage(input);
  const signature = await wallet.signMessage(message);
  return {
    input,
    output: {
      publicKey: toBase64(publicKey),
      signedMessage: toBase64(message),
      signature: toBase64(signature),
    },
  };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/**
 * Signs a wallet in: a nonce from the server, the wallet's signature, then the existing wallet
 * account's sign-in or a new account ("wallet_" and the first 8 characters of the address).
 */
export async function signInWithWallet(
  wallet: SigningWallet,
  publicKey: Uint8Array,
): Promise<LolgramUser> {
  const { address } = wallet;
  const input = await json<SignInInput>(
    await apiRequest('POST', '/api/lolgram/auth/wallet/nonce', { address }),
  );
  const proof = await proveWallet(wallet, input, publicKey);
  const existing = await fetch(`/api/lolgram/users/wallet/${encodeURIComponent(address)}`, {
    credentials: 'include',
  });
  if (existing.ok) {
    return json<LolgramUser>(await apiRequest('POST', '/api/lolgram/auth/wallet/login', { proof }));
  }
  try {
    return await json<LolgramUser>(
      await apiRequest('POST', '/api/lolgram/users/create', {
        username: walletUsername(address),
        password: address,
        walletAddress: address,
        proof,
      }),
    );
  } catch (error) {
    throw new Error(errorMessage(error) || 'Failed to create wallet user', { cause: error });
  }
}
