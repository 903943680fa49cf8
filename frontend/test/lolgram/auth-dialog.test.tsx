// @vitest-environment happy-dom
import { messages } from '@tapgram/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuthDialog } from '../../src/features/lolgram/dialogs/AuthDialog';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const api = stubFetchForEachTest();

function openDialog() {
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
      .on('POST', '/api/lolgram/users/create', () => json({ error: messages.usernameTaken }, 409));
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
  });
});
