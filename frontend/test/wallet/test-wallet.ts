import type {
  SolanaSignInInput,
  SolanaSignInOutput,
  SolanaSignMessageInput,
  SolanaSignMessageOutput,
} from '@solana/wallet-standard-features';
import type {
  Wallet,
  WalletAccount,
  WindowAppReadyEvent,
  WindowRegisterWalletEventCallback,
} from '@wallet-standard/core';

/** A Solana secret key (64 bytes, or its 32-byte seed); a plain array or object survives JSON. */
export type TestWalletSecretKey = Uint8Array | readonly number[] | Readonly<Record<string, number>>;

export interface TestWalletOptions {
  /** Offer the wallet-standard `solana:signIn` feature; without it apps fall back to signMessage. */
  signIn: boolean;
}

/**
 * Registers "Test Wallet", a Wallet Standard wallet on solana:devnet that signs with a real
 * ed25519 key (WebCrypto, so a secure context such as localhost), through the standard's window
 * events. For tests only. Self-contained: nothing outside the function body is used, so its
 * source can be handed to Playwright's page.addInitScript as is (see testWalletScript).
 */
export function registerTestWallet(
  secretKey: TestWalletSecretKey,
  options: TestWalletOptions = { signIn: true },
): void {
  const chain = 'solana:devnet';
  const seed = Uint8Array.from(Object.values(secretKey)).slice(0, 32);
  const pkcs8Prefix = [48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32];
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

  const base58 = (bytes: Uint8Array): string => {
    let value = bytes.reduce((n, byte) => n * BigInt(256) + BigInt(byte), BigInt(0));
    let text = '';
    while (value > BigInt(0)) {
      text = alphabet[Number(value % BigInt(58))] + text;
      value /= BigInt(58);
    }
    for (let i = 0; i < bytes.length && bytes[i] === 0; i++) text = `1${text}`;
    return text;
  };
  const fromBase64Url = (text: string): Uint8Array =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

  const key = (async () => {
    const pkcs8 = new Uint8Array([...pkcs8Prefix, ...seed]);
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
    const { x } = await crypto.subtle.exportKey('jwk', privateKey);
    const publicKey = fromBase64Url(x ?? '');
    const account: WalletAccount = {
      address: base58(publicKey),
      publicKey,
      chains: [chain],
      features: [
        ...(options.signIn ? ['solana:signIn' as const] : []),
        'solana:signMessage',
        'solana:signTransaction',
      ],
    };
    return { privateKey, account };
  })();
  const sign = async (message: Uint8Array): Promise<Uint8Array> =>
    new Uint8Array(
      await crypto.subtle.sign('Ed25519', (await key).privateKey, new Uint8Array(message)),
    );

  const messageText = (input: SolanaSignInInput, domain: string, address: string): string => {
    const named: [string, string | undefined][] = [
      ['URI', input.uri],
      ['Version', input.version],
      ['Chain ID', input.chainId],
      ['Nonce', input.nonce],
      ['Issued At', input.issuedAt],
      ['Expiration Time', input.expirationTime],
      ['Not Before', input.notBefore],
      ['Request ID', input.requestId],
    ];
    const fields = named.filter(([, value]) => value).map(([name, value]) => `${name}: ${value}`);
    if (input.resources) fields.push('Resources:', ...input.resources.map((r) => `- ${r}`));
    const statement = input.statement ? `\n\n${input.statement}` : '';
    const tail = fields.length ? `\n\n${fields.join('\n')}` : '';
    return `${domain} wants you to sign in with your Solana account:\n${address}${statement}${tail}`;
  };

  let accounts: readonly WalletAccount[] = [];
  const listeners = new Set<(properties: { accounts?: readonly WalletAccount[] }) => void>();
  const setAccounts = (next: readonly WalletAccount[]) => {
    accounts = next;
    for (const listener of listeners) listener({ accounts });
  };
  const connect = async () => {
    if (!accounts.length) setAccounts([(await key).account]);
    return { accounts };
  };

  const signMessage = async (
    ...inputs: readonly SolanaSignMessageInput[]
  ): Promise<readonly SolanaSignMessageOutput[]> =>
    Promise.all(
      inputs.map(async ({ message }) => ({
        signedMessage: message,
        signature: await sign(message),
        signatureType: 'ed25519' as const,
      })),
    );
  const signIn = async (
    ...inputs: readonly SolanaSignInInput[]
  ): Promise<readonly SolanaSignInOutput[]> => {
    const { account } = await key;
    await connect();
    return Promise.all(
      inputs.map(async (input) => {
        const domain = input.domain ?? window.location.host;
        const text = messageText(input, domain, input.address ?? account.address);
        const signedMessage = new TextEncoder().encode(text);
        const signature = await sign(signedMessage);
        return { account, signedMessage, signature, signatureType: 'ed25519' as const };
      }),
    );
  };

  const wallet: Wallet = {
    version: '1.0.0',
    name: 'Test Wallet',
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxMCAxMCI+PGNpcmNsZSBjeD0iNSIgY3k9IjUiIHI9IjUiIGZpbGw9IiNmYmJmMjQiLz48L3N2Zz4=',
    chains: [chain],
    get accounts() {
      return accounts;
    },
    features: {
      'standard:connect': { version: '1.0.0', connect },
      'standard:disconnect': { version: '1.0.0', disconnect: async () => setAccounts([]) },
      'standard:events': {
        version: '1.0.0',
        on: (
          _event: 'change',
          listener: (properties: { accounts?: readonly WalletAccount[] }) => void,
        ) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      'solana:signMessage': { version: '1.1.0', signMessage },
      ...(options.signIn ? { 'solana:signIn': { version: '1.0.0', signIn } } : {}),
      // Wallet adapters list only wallets that can sign transactions; sign-in never needs one.
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: async () => {
          throw new Error('Test Wallet signs messages only');
        },
      },
    },
  };

  const register: WindowRegisterWalletEventCallback = (api) => {
    api.register(wallet);
  };
  window.addEventListener('wallet-standard:app-ready', (event) =>
    register((event as unknown as WindowAppReadyEvent).detail),
  );
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
}

/** The script that registers Test Wallet with this key, for page.addInitScript({ content }). */
export function testWalletScript(
  secretKey: Uint8Array,
  options: TestWalletOptions = { signIn: true },
): string {
  const args = [JSON.stringify(Array.from(secretKey)), JSON.stringify(options)].join(', ');
  return `(${registerTestWallet.toString()})(${args});`;
}
