// @vitest-environment happy-dom
import { BIO_MAX_LENGTH } from '@tapgram/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EditProfileDialog } from '../../src/features/lolgram/profile/EditProfileDialog';
import { makeUser } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';
import { renderWithApp, signIn } from './render';

let api: FetchStub;

beforeEach(() => {
  localStorage.clear();
  api = stubFetch();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(user = makeUser({ username: 'alice', bio: 'hi' })) {
  signIn(api, user);
  renderWithApp(<EditProfileDialog user={user} open onOpenChange={() => {}} />);
  return user;
}

describe('edit profile dialog', () => {
  it('counts the bio characters against the 150 limit', async () => {
    open();
    expect(screen.getByText(`2/${BIO_MAX_LENGTH}`)).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Bio'), ' there');

    expect(screen.getByText(`8/${BIO_MAX_LENGTH}`)).toBeTruthy();
    expect(screen.getByLabelText('Bio').getAttribute('maxlength')).toBe(String(BIO_MAX_LENGTH));
  });

  it("shows the server's error in the dialog when saving fails, not in an alert", async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const user = open();
    api.on('PUT', `/api/lolgram/users/${user.id}`, () =>
      json({ error: 'Username already taken' }, 409),
    );

    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'bob' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(within(screen.getByRole('dialog')).getByRole('alert')).toHaveTextContent(
        'Username already taken',
      ),
    );
    expect(alert).not.toHaveBeenCalled();
  });

  it('requires a username', async () => {
    open();

    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '  ' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByRole('alert')).toBeTruthy();
    expect(api.calls('PUT', /\/api\/lolgram\/users\//)).toHaveLength(0);
  });
});
