// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LolgramPage } from '../../src/features/lolgram/LolgramPage';
import { makePost, makeUser } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

// The wallet chunk, held back until a test lets it arrive: a stand-in with the same exports.
const chunk = vi.hoisted(() => {
  let release: () => void = () => undefined;
  const state = {
    requested: 0,
    arrived: new Promise<void>((resolve) => (release = resolve)),
    release: () => release(),
  };
  return state;
});

vi.mock('../../src/features/wallet', async () => {
  chunk.requested += 1;
  await chunk.arrived;
  return {
    WalletProviders: ({ children }: { children: ReactNode }) => (
      <div data-testid="wallet-providers">{children}</div>
    ),
    WalletSection: () => <button type="button">Select Wallet</button>,
    WalletButton: () => <button type="button">Ab12..yz89</button>,
    WalletAutoSignIn: () => <span data-testid="wallet-auto-sign-in" />,
  };
});

const FEED = '/api/lolgram/posts/feed?limit=20';
const api = stubFetchForEachTest();

function renderLolgram() {
  api
    .on('GET', FEED, () => json([makePost({ caption: 'a funny cat' })]))
    .on('GET', '/api/lolgram/users/me', () => json({ error: 'Not signed in' }, 401));
  renderWithApp(<LolgramPage />, { auth: false });
}

// One file, one chunk: the tests run in order, as one visit would.
describe('the wallet code loads only when wallet UI needs it', () => {
  it('renders the feed without asking for the wallet chunk', async () => {
    renderLolgram();
    expect(await screen.findByText('a funny cat')).toBeTruthy();
    expect(chunk.requested).toBe(0);
    expect(screen.queryByTestId('wallet-providers')).toBeNull();
  });

  it('asks for it when the sign-in dialog opens, and puts the button in the dialog', async () => {
    renderLolgram();
    const card = await screen.findByRole('article', { name: 'Post by bob' });
    expect(chunk.requested).toBe(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Login / Sign Up' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Join LOLGram' });
    // Asked for as the dialog opens; the import reaches the module a moment later (later still in
    // a loaded run, where the dialog showed first).
    await vi.waitFor(() => expect(chunk.requested).toBe(1));
    // The password form does not wait for the wallet.
    expect(within(dialog).getByLabelText('Username')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Select Wallet' })).toBeNull();

    chunk.release();
    expect(await within(dialog).findByRole('button', { name: 'Select Wallet' })).toBeTruthy();
    expect(screen.getByTestId('wallet-auto-sign-in')).toBeTruthy();
    // The page did not mount again under the wallet's providers: same card, same dialog.
    expect(card.isConnected).toBe(true);
    expect(screen.getByRole('article', { name: 'Post by bob' })).toBe(card);
    expect(screen.getByRole('dialog', { name: 'Join LOLGram' })).toBe(dialog);
    expect(within(screen.getByTestId('wallet-providers')).queryByText('a funny cat')).toBeNull();
  });

  it('loads it at once for a wallet chosen on an earlier visit, which connects by itself', async () => {
    localStorage.setItem('walletName', JSON.stringify('Phantom'));
    renderLolgram();
    expect(await screen.findByText('a funny cat')).toBeTruthy();
    expect(await screen.findByTestId('wallet-auto-sign-in')).toBeTruthy();
  });

  it('shows a wallet user their wallet on their profile and, on a desktop, in the header', async () => {
    const me = makeUser({ username: 'wallet_Ab12cd34', walletAddress: 'Ab12cd34ef56gh78yz89' });
    signIn(api, me);
    api
      .on('GET', FEED, () => json([]))
      .on('GET', `/api/lolgram/users/username/${me.username}`, () => json(me))
      .on('GET', new RegExp(`^/api/lolgram/posts/user/${me.id}`), () => json([]));
    const wide = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === '(min-width: 1024px)',
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    renderWithApp(<LolgramPage />, { route: '/lolgram?tab=profile', auth: false });

    const onProfile = await screen.findByTestId('profile-wallet');
    expect(await within(onProfile).findByRole('button', { name: 'Ab12..yz89' })).toBeTruthy();
    const inHeader = screen.getByTestId('header-wallet');
    expect(await within(inHeader).findByRole('button', { name: 'Ab12..yz89' })).toBeTruthy();
    wide.mockRestore();
  });

  it('keeps the header to its buttons on a phone, and a password user’s profile without one', async () => {
    const me = makeUser({ username: 'alice' });
    signIn(api, me);
    api
      .on('GET', FEED, () => json([]))
      .on('GET', '/api/lolgram/users/username/alice', () => json(me))
      .on('GET', new RegExp(`^/api/lolgram/posts/user/${me.id}`), () => json([]));
    renderWithApp(<LolgramPage />, { route: '/lolgram?tab=profile', auth: false });
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(screen.queryByTestId('profile-wallet')).toBeNull();
    expect(screen.queryByTestId('header-wallet')).toBeNull();
  });
});
