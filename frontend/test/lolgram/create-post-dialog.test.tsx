// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreatePostDialog } from '../../src/features/lolgram/create-post/CreatePostDialog';
import { imageFileMessages } from '../../src/features/lolgram/lib/image-file';
import { makePost, makeUser } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';
import { renderWithApp, signIn } from './render';

vi.mock('../../src/features/lolgram/create-post/CropDialog', () => ({
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

  it('sends nothing while the caption is blank, and says "Add a caption" beside it', async () => {
    await openSignedIn();
    await pickAndCrop();

    await userEvent.type(screen.getByLabelText('Caption'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));

    expect(api.calls('POST', '/api/lolgram/posts')).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Add a caption');
    expect(screen.getByLabelText('Caption')).toHaveAccessibleDescription('Add a caption');
    expect(screen.getByLabelText('Caption')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.type(screen.getByLabelText('Caption'), 'now funny');
    expect(screen.queryByRole('alert')).toBeNull();
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

    const dialog = await screen.findByRole('dialog', { name: 'Sign In Required' });
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Your session has expired. Please sign in again.',
      ),
    );
    expect(alert).not.toHaveBeenCalled();
    expect(api.calls('POST', '/api/lolgram/users/logout')).toHaveLength(1);
  });

  it('shows why a post failed in the dialog, not in an alert, and keeps the photo and caption', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    await openSignedIn();
    api.on('POST', '/api/lolgram/posts', () =>
      json({ error: 'Unsupported image: use a JPEG, PNG, WebP or GIF' }, 415),
    );
    await pickAndCrop();

    await userEvent.type(screen.getByLabelText('Caption'), 'so funny');
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));

    const dialog = screen.getByRole('dialog', { name: 'Create New LOL' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to create post: Unsupported image: use a JPEG, PNG, WebP or GIF',
    );
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByAltText('Cropped photo preview')).toBeTruthy();
    expect(screen.getByLabelText('Caption')).toHaveValue('so funny');
  });

  it('says a picked file that is not an image cannot be used, and opens no crop dialog', async () => {
    await openSignedIn();
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });

    // `accept` is only a hint: a file chooser set to "All files" hands over anything.
    await userEvent
      .setup({ applyAccept: false })
      .upload(screen.getByTestId('post-image-input'), text);

    expect(await screen.findByRole('alert')).toHaveTextContent(imageFileMessages.notAnImage);
    expect(screen.queryByRole('button', { name: 'Use Photo' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Share' }).hasAttribute('disabled')).toBe(true);
  });

  it('says a damaged image cannot be opened, instead of cropping a broken image', async () => {
    await openSignedIn();
    vi.spyOn(HTMLImageElement.prototype, 'decode').mockRejectedValue(
      new DOMException('The source image cannot be decoded.', 'EncodingError'),
    );
    const damaged = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0])], 'cat.png', {
      type: 'image/png',
    });

    await userEvent.upload(screen.getByTestId('post-image-input'), damaged);

    expect(await screen.findByRole('alert')).toHaveTextContent(imageFileMessages.unreadable);
    expect(screen.queryByRole('button', { name: 'Use Photo' })).toBeNull();

    // A good photo picked next clears the message and goes on to the crop.
    vi.mocked(HTMLImageElement.prototype.decode).mockResolvedValue(undefined);
    await pickAndCrop();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
