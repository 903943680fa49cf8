// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthProvider } from '../../src/features/auth';
import { WalletProviders, WalletSection } from '../../src/features/wallet';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the wallet chooser with no wallet installed', () => {
  it('says you\'ll need a wallet, and lists the others behind "Already have a wallet?"', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <WalletProviders>
            <WalletSection />
          </WalletProviders>
        </AuthProvider>
      </QueryClientProvider>,
    );

    await userEvent.click(await screen.findByRole('button', { name: 'Select Wallet' }));
    const chooser = await screen.findByRole('dialog', {
      name: "You'll need a wallet on Solana to continue",
    });
    const toggle = within(chooser).getByRole('button', {
      name: 'Already have a wallet? View options',
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(chooser).queryByRole('button', { name: /Phantom/ })).toBeNull();

    await userEvent.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle.textContent).toBe('Hide options');
    const phantom = within(chooser).getByRole('button', { name: 'Phantom' });
    expect(phantom.textContent).not.toContain('Detected');

    await userEvent.click(within(chooser).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
