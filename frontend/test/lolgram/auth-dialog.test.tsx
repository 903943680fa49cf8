// @vitest-environment happy-dom
import { messages } from '@tapgram/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SIGNED_IN_BEFORE_KEY } from '../../src/features/auth/session-storage';
import { AuthDialog } from '../../src/features/lolgram/account/AuthDialog';
import { makeUser } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const api = stubFetchForEachTest();

/** Opens the dialog on a device where someone signed in before: on "Welcome Back!". */
function openDialog() {
  localStorage.setItem(SIGNED_IN_BEFORE_KEY, '1');
  const alert = vi.fn();
  vi.stubGlobal('alert', alert);
  const onOpenChange = vi.fn();
  renderWithApp(<AuthDialog open onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole('dialog', { name: 'Welcome Back!' });
  return { alert, onOpenChange, dialog };
}

describe('the Login / Sign Up dialog', () => {
  it('says "Please fill in all fields" in the dialog, not in an alert', async () => {
    const { alert, dialog } = openDialog();
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: '  ' } });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.fillAllFields);
    expect(within(dialog).getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(alert).not.toHaveBeenCalled();
    expect(api.calls('POST', '/api/lolgram/users/login')).toHaveLength(0);

    // Typing again clears it.
    await userEvent.type(within(dialog).getByLabelText('Password'), 'x');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('shows why signing in failed in the dialog and keeps it open', async () => {
    api
      .on('POST', '/api/lolgram/users/login', () =>
        json({ error: messages.invalidCredentials }, 401),
      )
      .on('GET', '/api/lolgram/users/username/alice', () => json(makeUser({ username: 'alice' })));
    const { alert, onOpenChange, dialog } = openDialog();

    await userEvent.type(within(dialog).getByLabelText('Username'), 'alice');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.invalidCredentials),
    );
    expect(alert).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Sign In' })).not.toBeDisabled();
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(0);
  });

  const noAccount = () =>
    api
      .on('POST', '/api/lolgram/users/login', () =>
        json({ error: messages.invalidCredentials }, 401),
      )
      .on('GET', '/api/lolgram/users/username/alcie', () =>
        json({ error: messages.userNotFound }, 404),
      )
      .on('POST', '/api/lolgram/users/create', () => json(makeUser({ username: 'alcie' }), 201));

  async function signInAs(dialog: HTMLElement, username: string) {
    await userEvent.type(within(dialog).getByLabelText('Username'), username);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
  }

  it('makes no account for a mistyped name on "Welcome Back!", however often Enter is pressed', async () => {
    noAccount();
    const { onOpenChange, dialog } = openDialog();
    await userEvent.type(within(dialog).getByLabelText('Username'), 'alcie');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse battery{Enter}');

    await within(dialog).findByRole('group', { name: 'There is no account named alcie.' });
    // The name is where a typo is fixed: the focus goes there, and Enter signs in again.
    await waitFor(() => expect(within(dialog).getByLabelText('Username')).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.calls('POST', '/api/lolgram/users/login')).toHaveLength(2));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.calls('POST', '/api/lolgram/users/login')).toHaveLength(3));
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(0);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('creates the account only once the user chose to sign up and typed the password again', async () => {
    noAccount();
    const { onOpenChange, dialog } = openDialog();
    await signInAs(dialog, 'alcie');
    const question = await within(dialog).findByRole('group', {
      name: 'There is no account named alcie.',
    });
    await userEvent.click(within(question).getByRole('button', { name: 'Sign up as alcie' }));

    const joining = screen.getByRole('dialog', { name: 'Join LOLGram' });
    expect(within(joining).getByLabelText('Username')).toHaveValue('alcie');
    const password = within(joining).getByLabelText('Password');
    expect(password).toHaveValue('');
    await waitFor(() => expect(password).toHaveFocus());
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(0);

    await userEvent.type(password, 'correct horse battery{Enter}');
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(api.bodies('POST', '/api/lolgram/users/create')).toEqual([
      JSON.stringify({ username: 'alcie', password: 'correct horse battery' }),
    ]);
  });

  it('forgets the question when the name is typed again', async () => {
    noAccount();
    const { dialog } = openDialog();
    await signInAs(dialog, 'alcie');
    await within(dialog).findByRole('group');
    await userEvent.type(within(dialog).getByLabelText('Username'), 'x');
    expect(within(dialog).queryByRole('group')).toBeNull();
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(0);
  });

  it('creates the account at once in the sign-up mode', async () => {
    noAccount();
    const { onOpenChange, dialog } = openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign up' }));
    const joining = screen.getByRole('dialog', { name: 'Join LOLGram' });
    await userEvent.type(within(joining).getByLabelText('Username'), 'alcie');
    await userEvent.type(within(joining).getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(within(joining).getByRole('button', { name: 'Create Account' }));

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(1);
    expect(api.calls('GET', '/api/lolgram/users/username/alcie')).toHaveLength(0);
  });

  it('opens on "Join LOLGram" on a device nobody signed in on, on "Welcome Back!" once someone has', async () => {
    noAccount();
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Login / Sign Up
          </button>
          <AuthDialog open={open} onOpenChange={setOpen} />
        </>
      );
    }
    renderWithApp(<Page />);
    const openIt = () => userEvent.click(screen.getByRole('button', { name: 'Login / Sign Up' }));

    await openIt();
    const joining = screen.getByRole('dialog', { name: 'Join LOLGram' });
    await userEvent.type(within(joining).getByLabelText('Username'), 'alcie');
    await userEvent.type(within(joining).getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(within(joining).getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Signed out again (the session goes), the device still knows someone signed in here.
    localStorage.removeItem('tapgram.lolgram.session');
    await openIt();
    expect(screen.getByRole('dialog', { name: 'Welcome Back!' })).toBeVisible();
  });

  it('opens where the page says, whatever the device knows', () => {
    renderWithApp(<AuthDialog open onOpenChange={vi.fn()} firstMode="login" />);
    expect(screen.getByRole('dialog', { name: 'Welcome Back!' })).toBeVisible();
  });
});
