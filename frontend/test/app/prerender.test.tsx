// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_FETCHES, PRERENDERED_PAGES, render } from '../../src/entry-server';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What each prerendered page shows a first visit before any data has come. */
const FIRST_SIGHT: Record<(typeof PRERENDERED_PAGES)[number], string[]> = {
  '/': ['Play the game', 'Open LOLGram'],
  '/play': ['data-testid="tap-character"', 'data-testid="stat-Country"'],
  '/leaderboard': ['Top Players', 'Top Countries'],
  '/lolgram': ['LOLGram'],
};

describe('the pages rendered at build time', () => {
  it.each(PRERENDERED_PAGES)(
    'renders %s whole and without a script, with no network, before any data',
    async (page) => {
      // The build renders with no network: a request fails, and the page shows its placeholder.
      vi.stubGlobal('fetch', () => Promise.reject(new Error('No requests while rendering')));
      const markup = await render(page);
      expect(markup).not.toBe('');
      expect(markup).not.toContain('<script');
      for (const text of FIRST_SIGHT[page]) expect(markup).toContain(text);
    },
  );

  it("asks for LOLGram's feed first, as the feed's own request does", () => {
    expect(FIRST_FETCHES).toEqual({ '/lolgram': '/api/lolgram/posts/feed?limit=20' });
  });
});
