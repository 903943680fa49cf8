import type { SignInInput } from '@tapgram/shared';

/** The optional Sign-In With Solana fields this app's server never sends but the format allows. */
export interface SignInMessageFields extends SignInInput {
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}

/**
 * The Sign-In With Solana message text, byte for byte as @solana/wallet-standard-util's
 * createSignInMessageText writes it: the server rebuilds this text to check the signature.
 */
export function signInMessageText(input: SignInMessageFields): string {
  let message = `${input.domain} wants you to sign in with your Solana account:\n${input.address}`;
  if (input.statement) message += `\n\n${input.statement}`;
  const fields: string[] = [];
  if (input.uri) fields.push(`URI: ${input.uri}`);
  if (input.version) fields.push(`Version: ${input.version}`);
  if (input.chainId) fields.push(`Chain ID: ${input.chainId}`);
  if (input.nonce) fields.push(`Nonce: ${input.nonce}`);
  if (input.issuedAt) fields.push(`Issued At: ${input.issuedAt}`);
  if (input.expirationTime) fields.push(`Expiration Time: ${input.expirationTime}`);
  if (input.notBefore) fields.push(`Not Before: ${input.notBefore}`);
  if (input.requestId) fields.push(`Request ID: ${input.requestId}`);
  if (input.resources) {
    fields.push('Resources:');
    for (const resource of input.resources) fields.push(`- ${resource}`);
  }
  if (fields.length) message += `\n\n${fields.join('\n')}`;
  return message;
}

export function signInMessage(input: SignInMessageFields): Uint8Array {
  return new TextEncoder().encode(signInMessageText(input));
}
