// @vitest-environment happy-dom
import { Keypair } from '@solana/web3.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { getWallets, type StandardDisconnectFeature } from '@wallet-standard/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dismiss, useToast } from '../../src/hooks/use-toast';
import { AuthProvider, useAuth } from '../../src/features/auth';
import { WalletAutoSignIn, WalletProviders, WalletSection } from '../../src/features/wallet';
import { registerTestWallet } from './test-wallet';
import { makeUser } from './builders';
import { notFromServer } from '../api-answers';
import { stubWalletServer } from './wallet-server';

const keypair = Keypair.generate();
const address = keypair.publicKey.toBase58();

function AuthProbe() {
  const { state, logout } = useAuth();
  return (
    <div>
      <p data-testid="auth">
        {state.isAuthenticated ? `${state.user?.username} by ${state.authMethod}` : 'signed out'}
      </p>
      <button onClick={() => void logout()}>Log out</button>
    </div>
  );
}

function ToastProbe() {
  const { toasts } = useToast();
  return (
    <ul>
      {toasts.map((t) => (
        <li
          key={t.id}
          data-testid="toast"
        >{`${t.variant ?? 'default'}: ${t.title} / ${t.description}`}</li>
      ))}
    </ul>
  );
}

function renderWallet(onSignedIn = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider>
        <WalletProviders>
          <WalletAutoSignIn />
          <WalletSection onSignedIn={onSignedIn} />
          <AuthProbe />
          <ToastProbe />
        </WalletProviders>
      </AuthProvider>
    </QueryClientProvider>,
  );
  return onSignedIn;
}

async function connectTestWallet() {
  fireEvent.click(await screen.findByRole('button', { name: 'Select Wallet' }));
  fireEvent.click(await screen.findByRole('button', { name: /Test Wallet/ }));
}

beforeAll(() => {
  registerTestWallet(keypair.secretKey);
});

afterEach(async () => {
  cleanup();
  dismiss();
  localStorage.clear();
  const wallet = getWallets()
    .get()
    .find((w) => w.name === 'Test Wallet');
  await (wallet?.features as StandardDisconnectFeature)['standard:disconnect'].disconnect();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('automatic wallet sign-in', () => {
  it('signs a newly connected wallet in once, creating its account, and tells the button', async () => {
    const server = stubWalletServer({ verifyProofs: true });
    const onSignedIn = renderWallet();
    await connectTestWallet();
    const username = `wallet_${address.slice(0, 8)}`;
    await waitFor(() =>
      expect(screen.getByTestId('auth')).toHaveTextContent(`${username} by wallet`),
    );
    expect(screen.getByTestId('toast')).toHaveTextContent(
      `default: Wallet connected / Signed in as @${username}`,
    );
    expect(onSignedIn).toHaveBeenCalledTimes(1);
    expect(server.calls.filter((c) => c.path.endsWith('/create'))).toHaveLength(1);
    expect(localStorage.getItem('walletName')).toBe('"Test Wallet"');
  });

  it('signs an existing wallet account in with a proof the server accepts', async () => {
    const existing = makeUser({ username: 'old_hand', walletAddress: address });
    const server = stubWalletServer({ existing, verifyProofs: true });
    renderWallet();
    await connectTestWallet();
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('old_hand by wallet'));
    expect(server.calls.map((c) => c.path)).toContain('/api/lolgram/auth/wallet/login');
  });

  it('signs in once per connection, and a logout of the wallet session disconnects it', async () => {
    const server = stubWalletServer({ verifyProofs: true });
    renderWallet();
    await connectTestWallet();
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('by wallet'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('signed out'));
    await screen.findByRole('button', { name: 'Select Wallet' });
    expect(localStorage.getItem('walletName')).toBeNull();
    expect(server.calls.filter((c) => c.path.endsWith('/nonce'))).toHaveLength(1);
  });

  it('signs the wallet in again when it reconnects after a logout', async () => {
    const server = stubWalletServer({ verifyProofs: true });
    renderWallet();
    await connectTestWallet();
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('by wallet'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await screen.findByRole('button', { name: 'Select Wallet' });
    await connectTestWallet();
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('by wallet'));
    expect(server.calls.filter((c) => c.path.endsWith('/nonce'))).toHaveLength(2);
  });

  it('on failure shows the error and disconnects the wallet', async () => {
    stubWalletServer({ createAnswer: () => notFromServer(new Response('', { status: 500 })) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onSignedIn = renderWallet();
    await connectTestWallet();
    await waitFor(() =>
      expect(screen.getByTestId('toast')).toHaveTextContent(
        'destructive: Wallet sign-in failed / Failed to create wallet user',
      ),
    );
    await screen.findByRole('button', { name: 'Select Wallet' });
    expect(screen.getByTestId('auth')).toHaveTextContent('signed out');
    expect(localStorage.getItem('walletName')).toBeNull();
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
