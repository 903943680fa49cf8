// @vitest-environment happy-dom
import { Keypair } from '@solana/web3.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getWallets, type StandardDisconnectFeature } from '@wallet-standard/core';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../src/hooks/use-toast';
import { AuthProvider, useAuth } from '../../src/features/auth';
import { AuthDialog } from '../../src/features/lolgram/account/AuthDialog';
import { WalletAutoSignIn, WalletProviders } from '../../src/features/wallet';
import { registerTestWallet } from './test-wallet';
import { stubWalletServer } from './wallet-server';

const keypair = Keypair.generate();
const username = `wallet_${keypair.publicKey.toBase58().slice(0, 8)}`;

/** The LOLGram page's arrangement: the auth dialog opened from a button, inside the wallet. */
function Page() {
  const [open, setOpen] = useState(false);
  const { state } = useAuth();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Login / Sign Up
      </button>
      <p data-testid="auth">{state.isAuthenticated ? state.user?.username : 'signed out'}</p>
      <AuthDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider>
        <WalletProviders>
          <WalletAutoSignIn />
          <Page />
        </WalletProviders>
      </AuthProvider>
    </QueryClientProvider>,
  );
}

const authDialog = () => screen.getByRole('dialog', { name: 'Join LOLGram' });
const chooser = () =>
  screen.findByRole('dialog', { name: 'Connect a wallet on Solana to continue' });

/** Opens the auth dialog and its wallet chooser, as a person does. */
async function openChooser() {
  renderPage();
  await userEvent.click(screen.getByRole('button', { name: 'Login / Sign Up' }));
  const select = await within(authDialog()).findByRole('button', { name: 'Select Wallet' });
  await userEvent.click(select);
  return { select, chooser: await chooser() };
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

describe('the wallet chooser opened from the auth dialog', () => {
  it('takes the focus and the clicks, and signing in with a wallet closes both dialogs', async () => {
    stubWalletServer({ verifyProofs: true });
    const { chooser: dialog } = await openChooser();

    expect(dialog.contains(document.activeElement)).toBe(true);
    const wallet = within(dialog).getByRole('button', { name: /Test Wallet/ });
    expect(wallet.textContent).toContain('Detected');
    await userEvent.click(wallet);

    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent(username));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes alone on Escape, giving the focus back to the wallet button in the auth dialog', async () => {
    const { select } = await openChooser();

    await userEvent.keyboard('{Escape}');

    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Connect a wallet on Solana to continue' }),
      ).toBeNull(),
    );
    expect(authDialog()).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(select));
    expect(screen.getByTestId('auth')).toHaveTextContent('signed out');
  });

  it('is worked by the keyboard: Tab reaches the other wallets, Enter chooses', async () => {
    stubWalletServer({ verifyProofs: true });
    const { chooser: dialog } = await openChooser();
    const more = within(dialog).getByRole('button', { name: 'More options' });
    expect(within(dialog).queryByRole('button', { name: /Phantom/ })).toBeNull();

    await userEvent.tab();
    expect(document.activeElement).toBe(more);
    await userEvent.keyboard('{Enter}');
    expect(within(dialog).getByRole('button', { name: /Phantom/ })).toBeTruthy();
    expect(more.textContent).toBe('Less options');

    await userEvent.tab({ shift: true });
    expect(document.activeElement?.textContent).toMatch(/Test Wallet/);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent(username));
  });
});
