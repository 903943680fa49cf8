// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletHost } from '../../src/features/lolgram/account/wallet-host';
import { WalletSlot } from '../../src/features/lolgram/account/WalletSlot';

// The wallet's code does not arrive (a dropped connection, a blocked chunk).
vi.mock('../../src/features/wallet', () => {
  throw new Error('the wallet chunk could not load');
});

afterEach(cleanup);

const NOTE = /Connect a Solana wallet \(devnet\)/;

describe('a wallet sign-in slot whose code cannot load', () => {
  it('says so where the button would be, beside its note, in place', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<WalletSlot />);
    expect(screen.getByText(NOTE)).toBeInTheDocument();
    expect(await screen.findByText('Wallet sign-in could not load.')).toBeInTheDocument();
  });

  it('says so in a wallet host, which renders the button into the slot', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <WalletHost>
        <WalletSlot />
      </WalletHost>,
    );
    expect(screen.getByText(NOTE)).toBeInTheDocument();
    expect(await screen.findByText('Wallet sign-in could not load.')).toBeInTheDocument();
    expect(screen.getByTestId('wallet-slot')).toHaveTextContent('Wallet sign-in could not load.');
  });
});
