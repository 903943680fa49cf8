// @vitest-environment happy-dom
import { createSignInMessageText } from '@solana/wallet-standard-util';
import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import { PublicKey } from '@solana/web3.js';
import { Buffer } from 'buffer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInWithWallet } from '../../src/features/wallet';
import type { SignInWallet } from '../../src/features/wallet/sign-in';
import { ADDRESS, makeSignInInput, makeUser } from './builders';
import { notFromServer } from '../api-answers';
import { stubWalletServer } from './wallet-server';

const publicKey = new PublicKey(ADDRESS);
const SIGNATURE = new Uint8Array([1, 2, 3, 250]);

const messageSigner = () => ({
  publicKey,
  signMessage: vi.fn(async (message: Uint8Array) => {
    void message;
    return SIGNATURE;
  }),
});

const signInSigner = () => ({
  ...messageSigner(),
  signIn: vi.fn(async (input: SolanaSignInInput) => ({
    account: { address: ADDRESS, publicKey: publicKey.toBytes(), chains: [], features: [] },
    signedMessage: new TextEncoder().encode(`signed for ${input.nonce}`),
    signature: SIGNATURE,
  })),
});

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('signInWithWallet', () => {
  it('asks the server for a nonce for the connected address first', async () => {
    const server = stubWalletServer();
    await signInWithWallet(messageSigner());
    expect(server.calls[0]).toEqual({
      method: 'POST',
      path: '/api/lolgram/auth/wallet/nonce',
      body: { address: ADDRESS },
    });
  });

  it('uses the wallet’s signIn when it has one, with the server’s input unchanged', async () => {
    const server = stubWalletServer();
    const wallet = signInSigner();
    await signInWithWallet(wallet);
    expect(wallet.signIn).toHaveBeenCalledWith(makeSignInInput());
    expect(wallet.signMessage).not.toHaveBeenCalled();
    const { output } = server.proofSent();
    expect(output).toEqual({
      publicKey: Buffer.from(publicKey.toBytes()).toString('base64'),
      signedMessage: Buffer.from(`signed for ${makeSignInInput().nonce}`).toString('base64'),
      signature: 'AQID+g==',
    });
  });

  it('signs the Sign-In With Solana message with signMessage when signIn is missing', async () => {
    const server = stubWalletServer();
    const wallet = messageSigner();
    await signInWithWallet(wallet);
    const text = createSignInMessageText(makeSignInInput());
    expect(wallet.signMessage).toHaveBeenCalledWith(new TextEncoder().encode(text));
    const proof = server.proofSent();
    expect(proof.input).toEqual(makeSignInInput());
    expect(new TextDecoder().decode(fromBase64(proof.output.signedMessage))).toBe(text);
    expect(fromBase64(proof.output.publicKey)).toEqual(publicKey.toBytes());
    expect(proof.output.signature).toBe('AQID+g==');
  });

  it('treats a signIn property left undefined as no signIn', async () => {
    stubWalletServer();
    const wallet: SignInWallet = { ...messageSigner(), signIn: undefined };
    await expect(signInWithWallet(wallet)).resolves.toBeDefined();
  });

  it('signs an existing wallet account in with the proof, creating nothing', async () => {
    const existing = makeUser({ id: 'existing', username: 'renamed' });
    const server = stubWalletServer({ existing });
    await expect(signInWithWallet(messageSigner())).resolves.toEqual(existing);
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/lolgram/auth/wallet/nonce',
      `GET /api/lolgram/users/wallet/${ADDRESS}`,
      'POST /api/lolgram/auth/wallet/login',
    ]);
    expect(server.calls[2].body).toEqual({ proof: server.proofSent() });
  });

  it('creates the wallet account when the address has none', async () => {
    const server = stubWalletServer();
    const user = await signInWithWallet(messageSigner());
    expect(user.username).toBe('wallet_So111111');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/lolgram/auth/wallet/nonce',
      `GET /api/lolgram/users/wallet/${ADDRESS}`,
      'POST /api/lolgram/users/create',
    ]);
    expect(server.calls[2].body).toEqual({
      username: 'wallet_So111111',
      password: ADDRESS,
      walletAddress: ADDRESS,
      proof: server.proofSent(),
    });
  });

  it('says "Failed to create wallet user" when creation fails without an error body', async () => {
    stubWalletServer({ createAnswer: () => notFromServer(new Response('', { status: 500 })) });
    await expect(signInWithWallet(messageSigner())).rejects.toThrow(
      /^Failed to create wallet user$/,
    );
  });

  it('passes on the server’s error when creation fails with one', async () => {
    stubWalletServer({
      createAnswer: () =>
        new Response(JSON.stringify({ error: 'Username taken' }), { status: 409 }),
    });
    await expect(signInWithWallet(messageSigner())).rejects.toThrow(/^Username taken$/);
  });

  it('stops before any account call when the wallet refuses to sign', async () => {
    const server = stubWalletServer();
    const wallet = messageSigner();
    wallet.signMessage.mockRejectedValueOnce(new Error('User rejected the request.'));
    await expect(signInWithWallet(wallet)).rejects.toThrow('User rejected the request.');
    expect(server.calls).toHaveLength(1);
  });
});
