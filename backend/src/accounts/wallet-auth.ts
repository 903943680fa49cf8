import { randomBytes } from 'node:crypto';
import { verifySignIn } from '@solana/wallet-standard-util';
import { signInInputSchema, type SignInInput, type SignInProof } from '@tapgram/shared';
import bs58 from 'bs58';
import type { Queryable } from '../core/db';
import { UnauthorizedError } from '../core/errors';
import type { SignInSite } from './sign-in-site';

const NONCE_TTL_MS = 5 * 60 * 1000;
const ED25519_SIGNATURE_BYTES = 64;
export const SIGN_IN_CHAIN = 'solana:devnet';
const STATEMENT = 'Sign in to LOLGram. This request costs nothing and sends no transaction.';

/**
 * Sign-In With Solana: the server issues a single-use nonce that expires, with the whole request
 * the wallet is to sign; the server checks the signature against that stored request (never the
 * client's copy), the site, the expiry, and that the nonce was never used before.
 */
export class WalletAuth {
  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issue(address: string, site: SignInSite): Promise<SignInInput> {
    const nonce = randomBytes(16).toString('hex');
    const issued = this.now();
    const expires = new Date(issued.getTime() + NONCE_TTL_MS);
    const input: SignInInput = {
      domain: site.domain,
      address,
      statement: STATEMENT,
      uri: site.uri,
      version: '1',
      chainId: SIGN_IN_CHAIN,
      nonce,
      issuedAt: issued.toISOString(),
      expirationTime: expires.toISOString(),
    };
    await this.db.query(
      `INSERT INTO wallet_nonces (nonce, address, domain, issued_at, expires_at, input)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [nonce, address, site.domain, issued, expires, JSON.stringify(input)],
    );
    return input;
  }

  /**
   * Answers the proven address, or 401: an unknown, expired or used nonce, a request issued for
   * another site, a key that is not the address, or a signature over any other text.
   */
  async verify(proof: SignInProof, site: SignInSite): Promise<string> {
    const refuse = (why: string): never => {
      throw new UnauthorizedError(`Wallet sign-in refused: ${why}`);
    };
    // The client's copy of the request only names the nonce; everything else is the server's.
    const issued = await this.issued(proof.input.nonce);
    if (!issued) return refuse('the sign-in request expired or was already used');
    if (issued.domain !== site.domain) refuse('the message names another site');
    const publicKey = Buffer.from(proof.output.publicKey, 'base64');
    if (publicKey.length !== 32 || bs58.encode(publicKey) !== issued.address)
      refuse('the key is not this address');
    const signature = Buffer.from(proof.output.signature, 'base64');
    // The verifier throws on any other length: a malformed proof is refused like a wrong one.
    if (signature.length !== ED25519_SIGNATURE_BYTES)
      refuse(`the signature is not a ${ED25519_SIGNATURE_BYTES}-byte ed25519 signature`);
    const valid = verifySignIn(issued, {
      account: {
        address: issued.address,
        publicKey: new Uint8Array(publicKey),
        chains: [SIGN_IN_CHAIN],
        features: [],
      },
      signedMessage: new Uint8Array(Buffer.from(proof.output.signedMessage, 'base64')),
      signature: new Uint8Array(signature),
      signatureType: 'ed25519',
    });
    if (!valid) refuse('the signed message is not the one this server issued');
    // Spend the nonce: of concurrent proofs for one nonce, exactly one passes.
    const { rowCount } = await this.db.query(
      `UPDATE wallet_nonces SET used_at = $2
        WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2`,
      [issued.nonce, this.now()],
    );
    if (rowCount !== 1) refuse('the sign-in request expired or was already used');
    return issued.address;
  }

  /** The request issued with this nonce while it is unused and unexpired. */
  private async issued(nonce: string): Promise<SignInInput | null> {
    const { rows } = await this.db.query<{ input: unknown }>(
      `SELECT input FROM wallet_nonces
        WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2 AND input IS NOT NULL`,
      [nonce, this.now()],
    );
    const parsed = signInInputSchema.safeParse(rows[0]?.input);
    return parsed.success ? parsed.data : null;
  }

  /** Deletes expired nonces, used or not: an expired one is refused whether its row exists or not. */
  async deleteExpired(now: Date = this.now()): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM wallet_nonces WHERE expires_at <= $1', [
      now,
    ]);
    return rowCount ?? 0;
  }
}
