// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreatePostDialog } from '../../src/features/lolgram/dialogs/CreatePostDialog';
import { makePost, makeUser } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';
import { renderWithApp, signIn } from './render';

vi.mock('../../src/features/lolgram/dialogs/CropDialog', () => ({
  CropDialog: ({ onCropped }: { onCropped: (dataUrl: string) => void }) => (
    <button type="button" onClick={() => onCropped('data:image/jpeg;base64,/9j/AAAA')}>
      Use Photo
    </button>
  ),
}));

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

async function openSignedIn() {
  const alice = makeUser({ username: 'alice' });
  signIn(api, alice);
  renderWithApp(<CreatePostDialog open onOpenChange={() => {}} />);
  await screen.findByRole('button', { name: 'Share' });
  return alice;
}

async function pickAndCrop() {
  const photo = new File([new Uint8Array([1, 2, 3])], 'cat.png', { type: 'image/png' });
  await userEvent.upload(screen.getByTestId('post-image-input'), photo);
  await userEvent.click(await screen.findByRole('button', { name: 'Use Photo' }));
  await screen.findByAltText('Cropped photo preview');
}

describe('create post dialog', () => {
  it('asks a signed-out visitor to sign in', () => {
    renderWithApp(<CreatePostDialog open onOpenChange={() => {}} />);

    expect(screen.getByText('Sign In Required')).toBeTruthy();
    expect(screen.getByText('Please sign in to create posts on LOLGram')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it('keeps Share disabled until a photo is cropped', async () => {
    await openSignedIn();
    expect(screen.getByRole('button', { name: 'Share' }).hasAttribute('disabled')).toBe(true);

    await pickAndCrop();

    expect(screen.getByRole('button', { name: 'Share' }).hasAttribute('disabled')).toBe(false);
  });

  it('sends nothing while the caption is blank', async () => {
    await openSignedIn();
    await pickAndCrop();

    await userEvent.type(screen.getByLabelText('Caption'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));

    expect(api.calls('POST', '/api/lolgram/posts')).toHaveLength(0);
  });

  it('uploads the cropped JPEG with the caption, user id and location', async () => {
    const onOpenChange = vi.fn();
    const alice = makeUser({ username: 'alice' });
    signIn(api, alice);
    api.on('POST', '/api/lolgram/posts', () => json(makePost(), 201));
    renderWithApp(<CreatePostDialog open onOpenChange={onOpenChange} />);
    await pickAndCrop();

    await userEvent.type(screen.getByLabelText('Caption'), 'so funny');
    await userEvent.type(screen.getByLabelText('Location (optional)'), 'Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const [form] = api.bodies('POST', '/api/lolgram/posts') as FormData[];
    const image = form.get('image') as File;
    expect(image.type).toBe('image/jpeg');
    expect(image.name).toBe('post.jpg');
    expect(form.get('caption')).toBe('so funny');
    expect(form.get('userId')).toBe(alice.id);
    expect(JSON.parse(String(form.get('location')))).toEqual({ name: 'Paris', lat: 0, lng: 0 });
  });

  it('signs out and explains when the server no longer knows the user', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    await openSignedIn();
    api
      .on('POST', '/api/lolgram/posts', () => json({ error: 'User not found' }, 401))
      .on('POST', '/api/lolgram/users/logout', () => new Response(null, { status: 204 }));
    await pickAndCrop();

    await userEvent.type(screen.getByLabelText('Caption'), 'so funny');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));

    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Your session has expired. Please sign in again.'),
    );
    expect(api.calls('POST', '/api/lolgram/users/logout')).toHaveLength(1);
  });
});
