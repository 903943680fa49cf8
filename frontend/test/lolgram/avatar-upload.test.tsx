// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageFileMessages } from '../../src/features/lolgram/lib/image-file';
import { ProfileTab } from '../../src/features/lolgram/tabs/ProfileTab';
import { makeUser } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

const api = stubFetchForEachTest();
afterEach(() => {
  vi.restoreAllMocks();
});

async function openOwnProfile() {
  const me = makeUser({ username: 'alice' });
  signIn(api, me);
  api
    .on('GET', '/api/lolgram/users/username/alice', () => json(me))
    .on('GET', `/api/lolgram/posts/user/${me.id}?limit=30`, () => json([]));
  renderWithApp(<ProfileTab onLogin={() => {}} />);
  await screen.findByRole('button', { name: 'Change profile photo' });
  return me;
}

const avatarUploads = (userId: string) => api.calls('PUT', `/api/lolgram/users/${userId}/avatar`);
const photo = () =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], 'me.jpg', { type: 'image/jpeg' });

describe('changing your avatar', () => {
  it('says a file that is not an image cannot be your photo, and sends nothing', async () => {
    const me = await openOwnProfile();
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });

    await userEvent.setup({ applyAccept: false }).upload(screen.getByTestId('avatar-input'), text);

    expect(await screen.findByRole('alert')).toHaveTextContent(imageFileMessages.notAnImage);
    expect(avatarUploads(me.id)).toHaveLength(0);
  });

  it('says a damaged image cannot be opened, and sends nothing', async () => {
    const me = await openOwnProfile();
    vi.spyOn(HTMLImageElement.prototype, 'decode').mockRejectedValue(
      new DOMException('The source image cannot be decoded.', 'EncodingError'),
    );

    await userEvent.upload(screen.getByTestId('avatar-input'), photo());

    expect(await screen.findByRole('alert')).toHaveTextContent(imageFileMessages.unreadable);
    expect(avatarUploads(me.id)).toHaveLength(0);
  });

  it("shows the server's reason when it refuses the avatar", async () => {
    const me = await openOwnProfile();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.on('PUT', `/api/lolgram/users/${me.id}/avatar`, () =>
      json({ error: 'The image could not be read' }, 415),
    );

    await userEvent.upload(screen.getByTestId('avatar-input'), photo());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to update your photo: The image could not be read',
    );
    expect(avatarUploads(me.id)).toHaveLength(1);
  });

  it('clears the message when a new photo is taken', async () => {
    const me = await openOwnProfile();
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    await userEvent.setup({ applyAccept: false }).upload(screen.getByTestId('avatar-input'), text);
    await screen.findByRole('alert');
    api.on('PUT', `/api/lolgram/users/${me.id}/avatar`, () =>
      json({ user: { ...me, avatar: '/api/lolgram/images/avatars/new.jpg' } }),
    );

    await userEvent.upload(screen.getByTestId('avatar-input'), photo());

    await waitFor(() => expect(avatarUploads(me.id)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
