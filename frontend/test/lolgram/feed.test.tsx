// @vitest-environment happy-dom
import { FEED_LIMIT } from '@tapgram/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FeedTab } from '../../src/features/lolgram/tabs/FeedTab';
import { makePost } from './builders';
import { deferred, json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const FEED = '/api/lolgram/posts/feed?limit=20';
const api = stubFetchForEachTest();

describe('LOLGram feed', () => {
  it('shows the loading text until the feed arrives', async () => {
    const reply = deferred();
    api.on('GET', FEED, () => reply.promise);
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    expect(screen.getByText('Loading your LOLGram feed...')).toBeTruthy();
    reply.settle(json([makePost({ caption: 'first post' })]));
    expect(await screen.findByText('first post')).toBeTruthy();
    expect(screen.queryByText('Loading your LOLGram feed...')).toBeNull();
  });

  it('asks for the first photo as soon as the feed arrives, as its card will', async () => {
    const [first, second] = [makePost({ caption: 'first post' }), makePost({ caption: 'second' })];
    api.on('GET', FEED, () => json([first, second]));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    expect(await screen.findByText('first post')).toBeTruthy();
    const preloaded = [...document.head.querySelectorAll('link[rel="preload"][as="image"]')];
    const hrefs = preloaded.map((link) => link.getAttribute('href'));
    expect(hrefs).toContain(first.imageUrl);
    expect(hrefs).not.toContain(second.imageUrl);
    const link = preloaded.find((l) => l.getAttribute('href') === first.imageUrl)!;
    expect(link.getAttribute('fetchpriority')).toBe('high');
    const card = screen.getByRole('img', { name: 'first post' });
    expect(link.getAttribute('imagesrcset')).toBe(card.getAttribute('srcset'));
    expect(link.getAttribute('imagesizes')).toBe(card.getAttribute('sizes'));
  });

  it('says "No posts yet" when the feed is empty', async () => {
    api.on('GET', FEED, () => json([]));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    expect(await screen.findByText('No posts yet')).toBeTruthy();
  });

  it('does not say "No posts yet" when there are posts', async () => {
    api.on('GET', FEED, () => json([makePost({ caption: 'hello' })]));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    expect(await screen.findByText('hello')).toBeTruthy();
    expect(screen.queryByText('No posts yet')).toBeNull();
  });

  it('loads the next page with the cursor of the last post', async () => {
    const page = Array.from({ length: FEED_LIMIT }, (_, index) =>
      makePost({ caption: `post ${index}` }),
    );
    const last = page[FEED_LIMIT - 1];
    api
      .on('GET', FEED, () => json(page))
      .on('GET', `${FEED}&before=${encodeURIComponent(last.cursor)}`, () =>
        json([makePost({ caption: 'older post' })]),
      );
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));

    expect(await screen.findByText('older post')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });

  it('shows story bubbles for the authors of the first 8 posts only', async () => {
    const posts = Array.from({ length: 10 }, (_, index) =>
      makePost({ username: `author${index}` }),
    );
    api.on('GET', FEED, () => json(posts));
    renderWithApp(<FeedTab onCreatePost={() => {}} />);

    const stories = await screen.findByRole('navigation', { name: 'Stories' });
    expect(stories.textContent).toContain('Your story');
    expect(stories.textContent).toContain('author7');
    expect(stories.textContent).not.toContain('author8');
  });
});
