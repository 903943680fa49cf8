// @vitest-environment happy-dom
import { verifyMessageSignature, verifySignIn } from '@solana/wallet-standard-util';
import type {
  SolanaSignInFeature,
  SolanaSignMessageFeature,
} from '@solana/wallet-standard-features';
import { Keypair } from '@solana/web3.js';
import {
  getWallets,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type Wallet,
} from '@wallet-standard/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { testWalletScript } from './test-wallet';
import { makeSignInInput } from './builders';

const keypair = Keypair.generate();
let wallet: Wallet;

type Features = StandardConnectFeature &
  StandardDisconnectFeature &
  SolanaSignInFeature &
  SolanaSignMessageFeature;
const features = () => wallet.features as Features;

beforeAll(() => {
  // Run as a page would run it: its source alone, with no module scope to lean on.
  new Function(testWalletScript(keypair.secretKey))();
  const found = getWallets()
    .get()
    .find((w) => w.name === 'Test Wallet');
  if (!found) throw new Error('Test Wallet was not registered');
  wallet = found;
});

describe('Test Wallet', () => {
  it('registers through the window events, on devnet, with what a wallet adapter needs', () => {
    expect(wallet.chains).toEqual(['solana:devnet']);
    expect(Object.keys(wallet.features).sort()).toEqual([
      'solana:signIn',
      'solana:signMessage',
      'solana:signTransaction',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ]);
  });

  it('connects with the account of the key it was given, and disconnects', async () => {
    const { accounts } = await features()['standard:connect'].connect();
    expect(accounts.map((a) => a.address)).toEqual([keypair.publicKey.toBase58()]);
    expect(accounts[0].publicKey).toEqual(keypair.publicKey.toBytes());
    await features()['standard:disconnect'].disconnect();
    expect(wallet.accounts).toEqual([]);
  });

  it('signs in with a message the server’s verifySignIn accepts', async () => {
    const input = makeSignInInput({ address: keypair.publicKey.toBase58() });
    const [output] = await features()['solana:signIn'].signIn(input);
    expect(verifySignIn(input, output)).toBe(true);
    expect(verifySignIn({ ...input, nonce: 'another' }, output)).toBe(false);
  });

  it('signs messages with the ed25519 key', async () => {
    const { accounts } = await features()['standard:connect'].connect();
    const message = new TextEncoder().encode('hello');
    const [output] = await features()['solana:signMessage'].signMessage({
      account: accounts[0],
      message,
    });
    const publicKey = keypair.publicKey.toBytes();
    const check = { message, signedMessage: output.signedMessage, publicKey };
    expect(verifyMessageSignature({ ...check, signature: output.signature })).toBe(true);
    const tampered = output.signature.map((byte, i) => (i === 0 ? byte ^ 1 : byte));
    expect(verifyMessageSignature({ ...check, signature: tampered })).toBe(false);
  });
});
