import { generateKeyPairSync } from 'node:crypto';
import bs58 from 'bs58';

export interface TestWalletKey {
  address: string;
  /** The private key as a JWK, for WebCrypto's Ed25519 in the page. */
  privateJwk: JsonWebKey;
}

export function makeWalletKey(): TestWalletKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const privateJwk = privateKey.export({ format: 'jwk' });
  return { address: bs58.encode(Buffer.from(privateJwk.x!, 'base64url')), privateJwk };
}

/**
 * Registers a Wallet Standard wallet named "Test Wallet" in the page, through the standard's
 * window events, signing messages with a real ed25519 key (WebCrypto): the whole Sign-In With
 * Solana path runs as it would with a real wallet. Passed to page.addInitScript.
 */
export function registerTestWallet(key: {
  address: string;
  privateJwk: JsonWebKey;
  publicKey: number[];
}) {
  const publicKey = new Uint8Array(key.publicKey);
  const account = {
    address: key.address,
    publicKey,
    chains: ['solana:devnet'],
    features: ['solana:signMessage', 'solana:signTransaction'],
  };
  const signingKey = crypto.subtle.importKey('jwk', key.privateJwk, { name: 'Ed25519' }, false, [
    'sign',
  ]);
  const listeners: Record<string, ((properties: unknown) => void)[]> = { change: [] };
  let accounts: (typeof account)[] = [];
  const wallet = {
    version: '1.0.0',
    name: 'Test Wallet',
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxMCAxMCI+PGNpcmNsZSBjeD0iNSIgY3k9IjUiIHI9IjUiIGZpbGw9IiNmYmJmMjQiLz48L3N2Zz4=',
    chains: ['solana:devnet'],
    get accounts() {
      return accounts;
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          accounts = [account];
          for (const listener of listeners.change) listener({ accounts });
          return { accounts };
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          accounts = [];
          for (const listener of listeners.change) listener({ accounts });
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (event: string, listener: (properties: unknown) => void) => {
          (listeners[event] ??= []).push(listener);
          return () => {
            listeners[event] = listeners[event].filter((l) => l !== listener);
          };
        },
      },
      // Wallet adapters list only wallets that can sign transactions; this one never needs to.
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: async () => {
          throw new Error('The test wallet signs messages only');
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: { message: Uint8Array }[]) =>
          Promise.all(
            inputs.map(async ({ message }) => ({
              signedMessage: message,
              signature: new Uint8Array(
                await crypto.subtle.sign('Ed25519', await signingKey, new Uint8Array(message)),
              ),
            })),
          ),
      },
    },
  };
  const register = ({ register: add }: { register: (w: unknown) => void }) => add(wallet);
  window.addEventListener('wallet-standard:app-ready', (event) =>
    register((event as CustomEvent<{ register: (w: unknown) => void }>).detail),
  );
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
}
