import type { LolgramUser, SignInInput } from '@tapgram/shared';

export const ADDRESS = 'So11111111111111111111111111111111111111112';

export function makeSignInInput(overrides: Partial<SignInInput> = {}): SignInInput {
  return {
    domain: 'localhost:5000',
    address: ADDRESS,
    statement: 'Sign in to LOLGram. This request costs nothing and sends no transaction.',
    uri: 'http://localhost:5000',
    version: '1',
    chainId: 'solana:devnet',
    nonce: '0f3c9a6b2d4e8f10a1b2c3d4e5f60718',
    issuedAt: '2030-01-01T00:00:00.000Z',
    expirationTime: '2030-01-01T00:05:00.000Z',
    ...overrides,
  };
}

export function makeUser(overrides: Partial<LolgramUser> = {}): LolgramUser {
  return {
    id: 'user-1',
    username: `wallet_${ADDRESS.slice(0, 8)}`,
    avatar: null,
    bio: null,
    followerCount: 0,
    followingCount: 0,
    postCount: 0,
    walletAddress: ADDRESS,
    isVerified: false,
    ...overrides,
  };
}
