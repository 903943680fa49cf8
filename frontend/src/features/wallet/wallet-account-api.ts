import {
  walletUsername,
  type LolgramUser,
  type SignInInput,
  type SignInProof,
} from '@tapgram/shared';
import { ApiError, apiRequest, throwIfResNotOk } from '../../lib/api';

export const CREATE_WALLET_USER_FAILED = 'Failed to create wallet user';

export async function requestSignInInput(address: string): Promise<SignInInput> {
  const res = await apiRequest('POST', '/api/lolgram/auth/wallet/nonce', { address });
  return (await res.json()) as SignInInput;
}

/** The wallet's account, or null when this address has none yet (404). */
export async function findWalletUser(address: string): Promise<LolgramUser | null> {
  const res = await fetch(`/api/lolgram/users/wallet/${encodeURIComponent(address)}`, {
    credentials: 'include',
  });
  if (res.status === 404) return null;
  await throwIfResNotOk(res);
  return (await res.json()) as LolgramUser;
}

export async function loginWalletUser(proof: SignInProof): Promise<LolgramUser> {
  const res = await apiRequest('POST', '/api/lolgram/auth/wallet/login', { proof });
  return (await res.json()) as LolgramUser;
}

/** Creates the wallet's account and signs it in; the spec's client sends the address as a password. */
export async function createWalletUser(address: string, proof: SignInProof): Promise<LolgramUser> {
  try {
    const res = await apiRequest('POST', '/api/lolgram/users/create', {
      username: walletUsername(address),
      password: address,
      walletAddress: address,
      proof,
    });
    return (await res.json()) as LolgramUser;
  } catch (error) {
    // Only the server's own words are shown; anything else gets the fixed text.
    if (error instanceof ApiError)
      throw new Error(error.serverMessage ?? CREATE_WALLET_USER_FAILED);
    throw error;
  }
}
