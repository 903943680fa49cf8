// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import {
  mockAllIsIntersecting,
  setupIntersectionMocking,
  resetIntersectionMocking,
} from 'react-intersection-observer/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExploreTab } from '../../src/features/lolgram/tabs/ExploreTab';
import { MapTab } from '../../src/features/lolgram/tabs/MapTab';
import { makePost } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp } from './render';

const api = stubFetchForEachTest();
beforeEach(() => setupIntersectionMocking(vi.fn));
afterEach(() => resetIntersectionMocking());

const LOCATION = { name: 'Cardiff', lat: 0, lng: 0 };
/** A full page of 20, then the rest: what a list longer than one page answers. */
const page = (prefix: string, count: number, extra: Parameters<typeof makePost>[0] = {}) =>
  Array.from({ length: count }, (_, i) =>
    makePost({ caption: `${prefix} ${i}`, cursor: `${prefix}-${i}`, ...extra }),
  );

describe('Explore and the map go on past the first 20 posts', () => {
  it('Explore reads the next page as its end scrolls into sight', async () => {
    api
      .on('GET', '/api/lolgram/posts/feed?limit=20', () => json(page('first', 20)))
      .on('GET', '/api/lolgram/posts/feed?limit=20&before=first-19', () => json(page('second', 3)));
    renderWithApp(<ExploreTab />);
    await screen.findByAltText('first 19');
    expect(screen.queryByAltText('second 0')).toBeNull();

    mockAllIsIntersecting(true);

    expect(await screen.findByAltText('second 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('the map counts every located post by the server, and lists them a page at a time', async () => {
    api
      .on('GET', '/api/lolgram/posts/located/count', () => json({ count: 57 }))
      .on('GET', '/api/lolgram/posts/located?limit=20', () =>
        json(page('near', 20, { location: LOCATION })),
      )
      .on('GET', '/api/lolgram/posts/located?limit=20&before=near-19', () =>
        json(page('far', 1, { location: LOCATION })),
      );
    renderWithApp(<MapTab />);
    const map = await screen.findByRole('region', { name: 'Interactive Map' });
    expect(await within(map).findByText('57 posts with a location')).toBeTruthy();
    await screen.findByAltText('near 19');
    expect(screen.getAllByRole('listitem')).toHaveLength(20);

    mockAllIsIntersecting(true);

    expect(await screen.findByAltText('far 0')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(21);
    expect(screen.getByText('57 posts with a location')).toBeTruthy();
  });
});
