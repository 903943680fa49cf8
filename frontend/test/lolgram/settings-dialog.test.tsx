// @vitest-environment happy-dom
import { accountMessages, messages, type AccountSettings, type SignInProof } from '@tapgram/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismiss } from '../../src/hooks/use-toast';
import { SESSION_KEY } from '../../src/features/auth/session-storage';
import { SettingsDialog } from '../../src/features/lolgram/settings';
import { ADDRESS, makeSignInInput } from '../wallet/builders';
import { makeUser } from './builders';
import { deferred, json, noContent, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

// A connected wallet that signs at once: the wallet's own flow is tested in test/wallet.
vi.mock('../../src/features/wallet', async () => {
  const { ADDRESS: address, makeSignInInput: input } = await import('../wallet/builders');
  const signed: SignInProof = {
    input: input(),
    output: { publicKey: address, signedMessage: 'c2lnbmVk', signature: 'c2lnbmF0dXJl' },
  };
  return {
    WalletProofButton: ({
      label,
      onProof,
    }: {
      label: string;
      onProof: (proof: SignInProof) => void;
    }) => (
      <button type="button" onClick={() => onProof(signed)}>
        {label}
      </button>
    ),
  };
});

/** The stand-in's signature, as the requests should carry it. */
const proof: SignInProof = {
  input: makeSignInInput(),
  output: { publicKey: ADDRESS, signedMessage: 'c2lnbmVk', signature: 'c2lnbmF0dXJl' },
};

const ME = '/api/lolgram/users/me';
const SETTINGS = `${ME}/settings`;
const PASSWORD = `${ME}/password`;
const END_OTHERS = `${ME}/sessions/end-others`;
const WALLET = `${ME}/wallet`;
const DELETE = `${ME}/delete`;

const api = stubFetchForEachTest();

// The toasts live in a module-wide list: one left from a test must not answer for the next.
afterEach(() => dismiss());

/** POST /me/delete answers 204 with no body. */
const deletedAnswer = () => noContent();

/** What the screen sent to `path`, as JSON (the order of the fields is no concern). */
const sent = (method: string, path: string) =>
  api.bodies(method, path).map((body) => JSON.parse(String(body)) as unknown);

const settings = (overrides: Partial<AccountSettings> = {}): AccountSettings => ({
  hasPassword: true,
  walletAddress: null,
  otherSessions: 0,
  ...overrides,
});

/** Where the app is, outside the dialog: deleting the account leads back to the feed. */
function Where() {
  const location = useLocation();
  return (
    <output data-testid="location">
      {location.pathname + location.search} {JSON.stringify(location.state)}
    </output>
  );
}

/** The profile's gear: opens the dialog, which closes itself as the real page's does. */
function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Settings
      </button>
      <SettingsDialog open={open} onOpenChange={setOpen} />
      <Where />
    </>
  );
}

/** Signs alice in, answers her settings with `current()` each time they are read, opens Settings. */
async function openSettings(current: () => AccountSettings | Response | Promise<Response>) {
  signIn(api, makeUser({ username: 'alice' }));
  api.on('GET', SETTINGS, () => {
    const value = current();
    return value instanceof Response || value instanceof Promise ? value : json(value);
  });
  renderWithApp(<Page />, { route: '/lolgram?tab=profile' });
  await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
  return screen.getByRole('dialog', { name: 'Settings' });
}

const section = (dialog: HTMLElement, name: string) =>
  within(dialog).findByRole('region', { name });

describe('the settings dialog', () => {
  it('says it is loading, then shows the four sections', async () => {
    const reply = deferred();
    const dialog = await openSettings(() => reply.promise);

    expect(within(dialog).getByText('Loading settings...')).toBeVisible();
    reply.settle(json(settings({ otherSessions: 2 })));

    const devices = await section(dialog, 'Devices');
    expect(within(devices).getByTestId('other-sessions')).toHaveTextContent(
      'Signed in on 2 other devices.',
    );
    for (const name of ['Change password', 'Wallet', 'Delete account']) {
      expect(within(dialog).getByRole('region', { name })).toBeVisible();
    }
    expect(within(dialog).queryByText('Loading settings...')).toBeNull();
  });

  it("shows the server's words when the settings cannot be read", async () => {
    const dialog = await openSettings(() => json({ error: 'Not signed in' }, 401));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not signed in');
    expect(within(dialog).queryByRole('region')).toBeNull();
  });

  it('says the settings could not be loaded when the server never answered', async () => {
    const dialog = await openSettings(() => {
      throw new TypeError('Failed to fetch');
    });

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Settings could not be loaded',
    );
  });

  it('reads the settings afresh each time it opens', async () => {
    let others = 0;
    const dialog = await openSettings(() => settings({ otherSessions: others }));
    expect(await within(dialog).findByTestId('other-sessions')).toHaveTextContent(
      'Signed in on this device only.',
    );

    // Another device signs in while the dialog is closed.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    others = 1;
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));

    expect(await screen.findByTestId('other-sessions')).toHaveTextContent(
      'Signed in on 1 other device.',
    );
    expect(api.calls('GET', SETTINGS)).toHaveLength(2);
  });
});

describe('changing the password', () => {
  it('asks for the current password before sending anything', async () => {
    const dialog = await openSettings(() => settings());
    const region = await section(dialog, 'Change password');
    await userEvent.type(within(region).getByLabelText('New password'), 'newsecret');

    await userEvent.click(within(region).getByRole('button', { name: 'Change password' }));

    const alert = within(region).getByRole('alert');
    expect(alert).toHaveTextContent(accountMessages.currentPasswordRequired);
    expect(within(region).getByLabelText('Current password')).toHaveAttribute(
      'aria-describedby',
      alert.id,
    );
    expect(api.calls('PUT', PASSWORD)).toHaveLength(0);
  });

  it('checks the new password with the shared rules before sending it', async () => {
    const dialog = await openSettings(() => settings());
    const region = await section(dialog, 'Change password');
    await userEvent.type(within(region).getByLabelText('Current password'), 'oldsecret');
    await userEvent.type(within(region).getByLabelText('New password'), 'short');

    await userEvent.click(within(region).getByRole('button', { name: 'Change password' }));

    expect(within(region).getByRole('alert')).toHaveTextContent(messages.passwordTooShort);
    expect(api.calls('PUT', PASSWORD)).toHaveLength(0);
  });

  it('sends both passwords, says how many devices were signed out, and reads the settings again', async () => {
    let others = 2;
    const dialog = await openSettings(() => settings({ otherSessions: others }));
    const reply = deferred();
    api.on('PUT', PASSWORD, () => reply.promise);
    const region = await section(dialog, 'Change password');
    await userEvent.type(within(region).getByLabelText('Current password'), 'oldsecret');
    await userEvent.type(within(region).getByLabelText('New password'), 'newsecret');

    await userEvent.click(within(region).getByRole('button', { name: 'Change password' }));

    // One change at a time: the button waits for the answer.
    expect(await within(region).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(sent('PUT', PASSWORD)).toEqual([
      { newPassword: 'newsecret', currentPassword: 'oldsecret' },
    ]);
    others = 0;
    reply.settle(json({ ended: 2 }));

    expect(await screen.findByText('Password changed')).toBeVisible();
    expect(screen.getByText('Signed out of 2 other devices.')).toBeVisible();
    expect(within(region).getByLabelText('Current password')).toHaveValue('');
    expect(within(region).getByLabelText('New password')).toHaveValue('');
    expect(within(region).queryByRole('alert')).toBeNull();
    expect(await within(dialog).findByTestId('other-sessions')).toHaveTextContent(
      'Signed in on this device only.',
    );
    expect(api.calls('GET', SETTINGS)).toHaveLength(2);
  });

  it("shows the server's refusal beside the form and keeps what was typed", async () => {
    const dialog = await openSettings(() => settings());
    api.on('PUT', PASSWORD, () => json({ error: accountMessages.wrongPassword }, 403));
    const region = await section(dialog, 'Change password');
    await userEvent.type(within(region).getByLabelText('Current password'), 'wrongpass');
    await userEvent.type(within(region).getByLabelText('New password'), 'newsecret');

    await userEvent.click(within(region).getByRole('button', { name: 'Change password' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      accountMessages.wrongPassword,
    );
    expect(within(region).getByLabelText('Current password')).toHaveValue('wrongpass');
    expect(within(region).getByRole('button', { name: 'Change password' })).toBeEnabled();
    expect(api.calls('GET', SETTINGS)).toHaveLength(1);
  });

  it('lets a wallet-only account set a password with a signature of its wallet', async () => {
    const dialog = await openSettings(() =>
      settings({ hasPassword: false, walletAddress: ADDRESS }),
    );
    api.on('PUT', PASSWORD, () => json({ ended: 0 }));
    const region = await section(dialog, 'Set a password');
    expect(within(region).queryByLabelText('Current password')).toBeNull();
    await userEvent.type(within(region).getByLabelText('New password'), 'newsecret');

    await userEvent.click(
      await within(region).findByRole('button', { name: 'Sign to set password' }),
    );

    expect(await screen.findByText('Password set')).toBeVisible();
    expect(screen.queryByText(/Signed out of/)).toBeNull();
    expect(sent('PUT', PASSWORD)).toEqual([{ newPassword: 'newsecret', proof }]);
    expect(within(region).getByLabelText('New password')).toHaveValue('');
  });

  it('asks a wallet-only account for a valid new password before using the signature', async () => {
    const dialog = await openSettings(() =>
      settings({ hasPassword: false, walletAddress: ADDRESS }),
    );
    const region = await section(dialog, 'Set a password');

    await userEvent.click(
      await within(region).findByRole('button', { name: 'Sign to set password' }),
    );

    const alert = within(region).getByRole('alert');
    expect(alert).toHaveTextContent(messages.passwordTooShort);
    expect(within(region).getByLabelText('New password')).toHaveAttribute(
      'aria-describedby',
      alert.id,
    );
    expect(api.calls('PUT', PASSWORD)).toHaveLength(0);
  });
});

describe('signing out other devices', () => {
  it('signs the other devices out and shows the count read again', async () => {
    let others = 1;
    const dialog = await openSettings(() => settings({ otherSessions: others }));
    api.on('POST', END_OTHERS, () => {
      others = 0;
      return json({ ended: 1 });
    });
    const region = await section(dialog, 'Devices');
    expect(within(region).getByTestId('other-sessions')).toHaveTextContent(
      'Signed in on 1 other device.',
    );

    await userEvent.click(
      within(region).getByRole('button', { name: 'Sign out of all other devices' }),
    );

    expect(await screen.findByText('Signed out of 1 other device')).toBeVisible();
    await waitFor(() =>
      expect(within(region).getByTestId('other-sessions')).toHaveTextContent(
        'Signed in on this device only.',
      ),
    );
    expect(api.calls('POST', END_OTHERS)).toHaveLength(1);
  });

  it("shows the server's refusal in the section", async () => {
    const dialog = await openSettings(() => settings({ otherSessions: 3 }));
    api.on('POST', END_OTHERS, () => json({ error: 'Too many requests, slow down' }, 429));
    const region = await section(dialog, 'Devices');

    await userEvent.click(
      within(region).getByRole('button', { name: 'Sign out of all other devices' }),
    );

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Too many requests, slow down',
    );
    expect(within(region).getByTestId('other-sessions')).toHaveTextContent(
      'Signed in on 3 other devices.',
    );
  });
});

describe('the linked wallet', () => {
  const short = `${ADDRESS.slice(0, 4)}…${ADDRESS.slice(-4)}`;

  it('unlinks the wallet and then offers to link one', async () => {
    const dialog = await openSettings(() => settings({ walletAddress: ADDRESS }));
    api.on('DELETE', WALLET, () => json(settings()));
    const region = await section(dialog, 'Wallet');
    expect(within(region).getByText(/Linked:/)).toHaveTextContent(`Linked: ${short}`);

    await userEvent.click(within(region).getByRole('button', { name: 'Unlink wallet' }));

    expect(await screen.findByText('Wallet unlinked')).toBeVisible();
    expect(await within(region).findByRole('button', { name: 'Sign to link' })).toBeVisible();
    expect(within(region).queryByText(/Linked:/)).toBeNull();
    expect(api.calls('DELETE', WALLET)).toHaveLength(1);
  });

  it('keeps the wallet and says why when the server refuses to unlink it', async () => {
    const dialog = await openSettings(() =>
      settings({ hasPassword: false, walletAddress: ADDRESS }),
    );
    api.on('DELETE', WALLET, () => json({ error: accountMessages.lastSignInMethod }, 409));
    const region = await section(dialog, 'Wallet');

    await userEvent.click(within(region).getByRole('button', { name: 'Unlink wallet' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      accountMessages.lastSignInMethod,
    );
    expect(within(region).getByText(/Linked:/)).toHaveTextContent(`Linked: ${short}`);
  });

  it('links the wallet that signed, and shows it linked', async () => {
    const dialog = await openSettings(() => settings());
    api.on('POST', WALLET, () => json(settings({ walletAddress: ADDRESS })));
    const region = await section(dialog, 'Wallet');

    await userEvent.click(await within(region).findByRole('button', { name: 'Sign to link' }));

    expect(await screen.findByText('Wallet linked')).toBeVisible();
    expect(within(region).getByText(/Linked:/)).toHaveTextContent(`Linked: ${short}`);
    expect(sent('POST', WALLET)).toEqual([{ proof }]);
  });

  it('says why a wallet cannot be linked', async () => {
    const dialog = await openSettings(() => settings());
    api.on('POST', WALLET, () => json({ error: accountMessages.walletTakenElsewhere }, 409));
    const region = await section(dialog, 'Wallet');

    await userEvent.click(await within(region).findByRole('button', { name: 'Sign to link' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      accountMessages.walletTakenElsewhere,
    );
    expect(within(region).queryByText(/Linked:/)).toBeNull();
  });
});

describe('deleting the account', () => {
  it('asks for the password first, and sends nothing without it', async () => {
    const dialog = await openSettings(() => settings());
    const region = await section(dialog, 'Delete account');
    expect(within(region).queryByLabelText('Password to confirm')).toBeNull();

    await userEvent.click(within(region).getByRole('button', { name: 'Delete account…' }));
    await userEvent.click(within(region).getByRole('button', { name: 'Delete my account' }));

    expect(within(region).getByRole('alert')).toHaveTextContent(accountMessages.confirmWith);
    expect(api.calls('POST', DELETE)).toHaveLength(0);
  });

  it("shows the server's refusal and keeps the dialog open", async () => {
    const dialog = await openSettings(() => settings());
    api.on('POST', DELETE, () => json({ error: accountMessages.wrongPassword }, 403));
    const region = await section(dialog, 'Delete account');
    await userEvent.click(within(region).getByRole('button', { name: 'Delete account…' }));
    await userEvent.type(within(region).getByLabelText('Password to confirm'), 'wrongpass');

    await userEvent.click(within(region).getByRole('button', { name: 'Delete my account' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      accountMessages.wrongPassword,
    );
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    expect(api.calls('POST', '/api/lolgram/users/logout')).toHaveLength(0);
  });

  it('deletes with the password, signs out and goes back to the feed', async () => {
    const dialog = await openSettings(() => settings());
    const reply = deferred();
    api
      .on('POST', DELETE, () => reply.promise)
      .on('POST', '/api/lolgram/users/logout', () => noContent());
    const region = await section(dialog, 'Delete account');
    await userEvent.click(within(region).getByRole('button', { name: 'Delete account…' }));
    await userEvent.type(within(region).getByLabelText('Password to confirm'), 'oldsecret{Enter}');

    expect(await within(region).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(sent('POST', DELETE)).toEqual([{ password: 'oldsecret' }]);
    reply.settle(deletedAnswer());

    expect(await screen.findByText('Account deleted')).toBeVisible();
    expect(screen.getByText('Everything you posted is gone.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The router moves in a transition: after the dialog's own update.
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/lolgram {"focusFeed":true}'),
    );
    await waitFor(() => expect(api.calls('POST', '/api/lolgram/users/logout')).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem(SESSION_KEY)).toBeNull());
  });

  it('deletes a wallet-only account with a signature of its wallet', async () => {
    const dialog = await openSettings(() =>
      settings({ hasPassword: false, walletAddress: ADDRESS }),
    );
    api
      .on('POST', DELETE, deletedAnswer)
      .on('POST', '/api/lolgram/users/logout', () => noContent());
    const region = await section(dialog, 'Delete account');
    await userEvent.click(within(region).getByRole('button', { name: 'Delete account…' }));
    expect(within(region).queryByLabelText('Password to confirm')).toBeNull();

    await userEvent.click(await within(region).findByRole('button', { name: 'Sign to delete' }));

    expect(await screen.findByText('Account deleted')).toBeVisible();
    expect(sent('POST', DELETE)).toEqual([{ proof }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows why a wallet's signature did not delete the account", async () => {
    const dialog = await openSettings(() =>
      settings({ hasPassword: false, walletAddress: ADDRESS }),
    );
    api.on('POST', DELETE, () => json({ error: accountMessages.adminKept }, 409));
    const region = await section(dialog, 'Delete account');
    await userEvent.click(within(region).getByRole('button', { name: 'Delete account…' }));

    await userEvent.click(await within(region).findByRole('button', { name: 'Sign to delete' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(accountMessages.adminKept);
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  });
});
