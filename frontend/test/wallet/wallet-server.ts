import { verifySignIn } from '@solana/wallet-standard-util';
import type { LolgramUser, SignInProof } from '@tapgram/shared';
import { Buffer } from 'buffer';
import { vi } from 'vitest';
import { checkedAnswer } from '../api-answers';
import { makeSignInInput, makeUser } from './builders';

export interface ServerCall {
  method: string;
  path: string;
  body: unknown;
}

interface WalletServerOptions {
  /** The account GET /api/lolgram/users/wallet/{address} finds; none means 404. */
  existing?: LolgramUser;
  /** Answers POST /api/lolgram/users/create instead of creating the account. */
  createAnswer?: () => Response;
  domain?: string;
  /** Refuses (401) a proof whose signature does not check out, as the real server does. */
  verifyProofs?: boolean;
}

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

function proofIsValid({ input, output }: SignInProof): boolean {
  return verifySignIn(input, {
    account: {
      address: input.address,
      publicKey: bytes(output.publicKey),
      chains: [],
      features: [],
    },
    signedMessage: bytes(output.signedMessage),
    signature: bytes(output.signature),
  });
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * The wallet part of the backend, as a fetch stub that records what the client sent and answers
 * as the shared schemas say the server does.
 */
export function stubWalletServer(options: WalletServerOptions = {}) {
  const calls: ServerCall[] = [];
  const answer = (method: string, path: string, body: unknown): Response => {
    const proof = (body as { proof?: SignInProof } | undefined)?.proof;
    if (options.verifyProofs && proof && !proofIsValid(proof)) {
      return json({ error: 'Wallet sign-in refused' }, 401);
    }
    if (method === 'POST' && path === '/api/lolgram/auth/wallet/nonce') {
      const { address } = body as { address: string };
      return json(makeSignInInput({ address, domain: options.domain ?? 'localhost:5000' }));
    }
    if (method === 'GET' && path.startsWith('/api/lolgram/users/wallet/')) {
      return options.existing ? json(options.existing) : json({ error: 'User not found' }, 404);
    }
    if (method === 'POST' && path === '/api/lolgram/auth/wallet/login') {
      return json(options.existing);
    }
    if (method === 'POST' && path === '/api/lolgram/users/create') {
      if (options.createAnswer) return options.createAnswer();
      const { username, walletAddress } = body as { username: string; walletAddress: string };
      return json(makeUser({ username, walletAddress }), 201);
    }
    return json({ error: 'Not found' }, 404);
  };
  const fetchStub = vi.fn(async (url: string | URL, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(url);
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    return checkedAnswer(method, path, answer(method, path, body));
  });
  vi.stubGlobal('fetch', fetchStub);

  const proofSent = (): SignInProof => {
    const call = calls.find((c) => c.path.endsWith('/login') || c.path.endsWith('/create'));
    if (!call) throw new Error('No proof was sent');
    return (call.body as { proof: SignInProof }).proof;
  };
  return { calls, proofSent };
}
