import { randomBytes } from 'node:crypto';
import { verifySignIn } from '@solana/wallet-standard-util';
import type { SignInInput, SignInProof } from '@tapgram/shared';
import bs58 from 'bs58';
import type { Queryable } from '../core/db';
import { UnauthorizedError } from '../core/errors';

const NONCE_TTL_MS = 5 * 60 * 1000;
export const SIGN_IN_CHAIN = 'solana:devnet';
const STATEMENT = 'Sign in to LOLGram. This request costs nothing and sends no transaction.';

/**
 * Sign-In With Solana: the server issues a single-use nonce that expires, the wallet signs the
 * message naming this site, and the server checks the signature, the fields, the expiry and that
 * the nonce was never used before.
 */
export class WalletAuth {
  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issue(address: string, host: string, origin: string): Promise<SignInInput> {
    const nonce = randomBytes(16).toString('hex');
    const issued = this.now();
    const expires = new Date(issued.getTime() + NONCE_TTL_MS);
    await this.db.query(
      'INSERT INTO wallet_nonces (nonce, address, domain, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [nonce, address, host, issued, expires],
    );
    return {
      domain: host,
      address,
      statement: STATEMENT,
      uri: origin,
      version: '1',
      chainId: SIGN_IN_CHAIN,
      nonce,
      issuedAt: issued.toISOString(),
      expirationTime: expires.toISOString(),
    };
  }

  /** Answers the proven address, or 401: a bad signature, another domain or address, an old or used nonce. */
  async verify(proof: SignInProof, host: string): Promise<string> {
    const { input, output } = proof;
    const refuse = (why: string): never => {
      throw new UnauthorizedError(`Wallet sign-in refused: ${why}`);
    };
    const publicKey = Buffer.from(output.publicKey, 'base64');
    if (publicKey.length !== 32 || bs58.encode(publicKey) !== input.address)
      refuse('the key is not this address');
    if (input.domain !== host) refuse('the message names another site');
    if (input.chainId !== SIGN_IN_CHAIN) refuse('wrong chain');
    const valid = verifySignIn(input, {
      account: {
        address: input.address,
        publicKey: new Uint8Array(publicKey),
        chains: [SIGN_IN_CHAIN],
        features: [],
      },
      signedMessage: new Uint8Array(Buffer.from(output.signedMessage, 'base64')),
      signature: new Uint8Array(Buffer.from(output.signature, 'base64')),
      signatureType: 'ed25519',
    });
    if (!valid) refuse('the signature does not match');
    // Spend the nonce: only an unused, unexpired one issued for this address and site passes, once.
    const { rows } = await this.db.query<{ nonce: string }>(
      `UPDATE wallet_nonces SET used_at = now()
        WHERE nonce = $1 AND address = $2 AND domain = $3 AND used_at IS NULL AND expires_at > $4
        RETURNING nonce`,
      [input.nonce, input.address, host, this.now()],
    );
    if (rows.length === 0) refuse('the sign-in request expired or was already used');
    if (Date.parse(input.expirationTime) <= this.now().getTime())
      refuse('the sign-in request expired');
    return input.address;
  }
}
