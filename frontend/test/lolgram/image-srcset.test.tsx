// @vitest-environment happy-dom
import type { Post } from '@tapgram/shared';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PostGrid } from '../../src/features/lolgram/post-lists/PostGrid';
import { UserAvatar } from '../../src/features/lolgram/ui/UserAvatar';
import { IMAGE_SIZES } from '../../src/features/lolgram/lib/image-sizes';
import { FeedTab } from '../../src/features/lolgram/tabs/FeedTab';
import { makePost } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const FEED = '/api/lolgram/posts/feed?limit=20';
const api = stubFetchForEachTest();

/** A post whose images have their copies, as the server answers one uploaded today. */
function postWithCopies(caption: string, overrides: Partial<Post> = {}): Post {
  const base = `/api/lolgram/images/posts/${caption}`;
  return makePost({
    caption,
    imageSrcset: `${base}-full-320w.webp 320w, ${base}-full-640w.webp 640w, ${base}-full-1080w.webp 1080w`,
    thumbnailSrcset: `${base}-thumb-320w.webp 320w, ${base}-thumb-640w.webp 640w`,
    userAvatar: '/api/lolgram/images/avatars/bob.jpg',
    userAvatarSrcset: '/api/lolgram/images/avatars/bob-96w.webp 96w',
    ...overrides,
  });
}

describe('feed images load the size the screen shows, the first one at once', () => {
  it("gives each card's image its copies and sizes, and only the first one priority", async () => {
    const posts = [postWithCopies('first'), postWithCopies('second'), postWithCopies('third')];
    api.on('GET', FEED, () => json(posts));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    const images = await Promise.all(
      posts.map(
        async (post) =>
          (await screen.findByRole('img', { name: post.caption })) as HTMLImageElement,
      ),
    );
    for (const [index, image] of images.entries()) {
      expect(image.getAttribute('src')).toBe(posts[index].imageUrl);
      expect(image.getAttribute('srcset')).toBe(posts[index].imageSrcset);
      expect(image.getAttribute('sizes')).toBe(IMAGE_SIZES.card);
    }
    const [first, ...rest] = images;
    expect(first.getAttribute('loading')).toBe('eager');
    expect(first.getAttribute('fetchpriority')).toBe('high');
    for (const image of rest) {
      expect(image.getAttribute('loading')).toBe('lazy');
      expect(image.getAttribute('fetchpriority')).toBeNull();
    }
    // The authors' avatars take the copy of their own size.
    const card = screen.getAllByRole('article', { name: 'Post by bob' })[0];
    const avatar = within(card).getByRole('img', { name: "bob's avatar" });
    expect(avatar.getAttribute('srcset')).toBe(posts[0].userAvatarSrcset);
    expect(avatar.getAttribute('sizes')).toBe('36px');
  });

  it('shows an image uploaded before copies were made as it is', async () => {
    const old = makePost({ caption: 'old one' });
    api.on('GET', FEED, () => json([old]));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);
    const image = await screen.findByRole('img', { name: 'old one' });
    expect(image.getAttribute('src')).toBe(old.imageUrl);
    expect(image.hasAttribute('srcset')).toBe(false);
    expect(image.hasAttribute('sizes')).toBe(false);
    expect(image.getAttribute('loading')).toBe('eager');
  });

  it('gives grid tiles the square copies at a third of the column', () => {
    const posts = [postWithCopies('tile one'), makePost({ caption: 'tile two' })];
    render(
      <MemoryRouter>
        <PostGrid posts={posts} />
      </MemoryRouter>,
    );
    const one = screen.getByRole('img', { name: 'tile one' });
    expect(one.getAttribute('src')).toBe(posts[0].thumbnailUrl);
    expect(one.getAttribute('srcset')).toBe(posts[0].thumbnailSrcset);
    expect(one.getAttribute('sizes')).toBe(IMAGE_SIZES.tile);
    expect(one.getAttribute('loading')).toBe('lazy');
    const two = screen.getByRole('img', { name: 'tile two' });
    expect(two.hasAttribute('srcset')).toBe(false);
  });

  it("gives an avatar its copies at the avatar's size, and none to the placeholder", () => {
    render(
      <>
        <UserAvatar
          src="/api/lolgram/images/avatars/a.jpg"
          srcSet="/api/lolgram/images/avatars/a-96w.webp 96w, /api/lolgram/images/avatars/a-192w.webp 192w"
          size={80}
          username="amy"
        />
        <UserAvatar src={null} size={80} username="nobody" />
      </>,
    );
    const amy = screen.getByRole('img', { name: "amy's avatar" });
    expect(amy.getAttribute('srcset')).toContain('192w');
    expect(amy.getAttribute('sizes')).toBe('80px');
    const placeholder = screen.getByRole('img', { name: "nobody's avatar" });
    expect(placeholder.hasAttribute('srcset')).toBe(false);
  });
});
