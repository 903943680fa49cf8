// @vitest-environment happy-dom
import { createSignInMessageText } from '@solana/wallet-standard-util';
import { describe, expect, it } from 'vitest';
import { signInMessage, signInMessageText } from '../../src/features/wallet/sign-in-message';
import { makeSignInInput } from './builders';

describe('the Sign-In With Solana message text', () => {
  it('is the same text @solana/wallet-standard-util writes for the server’s request', () => {
    const input = makeSignInInput();
    expect(signInMessageText(input)).toBe(createSignInMessageText(input));
    expect(signInMessageText(input)).toBe(
      [
        'localhost:5000 wants you to sign in with your Solana account:',
        input.address,
        '',
        input.statement,
        '',
        'URI: http://localhost:5000',
        'Version: 1',
        'Chain ID: solana:devnet',
        `Nonce: ${input.nonce}`,
        `Issued At: ${input.issuedAt}`,
        `Expiration Time: ${input.expirationTime}`,
      ].join('\n'),
    );
  });

  it('follows the library for an empty statement and the optional fields too', () => {
    const input = {
      ...makeSignInInput({ statement: '' }),
      notBefore: '2030-01-01T00:00:00.000Z',
      requestId: 'req-1',
      resources: ['https://example.com/a', 'ipfs://b'],
    };
    expect(signInMessageText(input)).toBe(createSignInMessageText(input));
  });

  it('is signed as the UTF-8 bytes of that text', () => {
    const input = makeSignInInput({ statement: 'Sign in to LOLGram 😂' });
    expect(signInMessage(input)).toEqual(new TextEncoder().encode(createSignInMessageText(input)));
  });
});
