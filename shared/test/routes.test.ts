import { describe, expect, it } from 'vitest';
import { APP_SHELL, isAppPage, PRERENDERED_PAGES, prerenderedFile } from '../src/routes';

const POST_ID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

describe('the app pages the server answers 200', () => {
  it.each([
    '/',
    '/play',
    '/lolgram',
    '/lolgram/someone',
    `/lolgram/p/${POST_ID}`,
    `/lolgram/p/${POST_ID.toUpperCase()}/`,
    '/admin',
    `/admin/players/${POST_ID}`,
  ])('knows %s', (path) => {
    expect(isAppPage(path)).toBe(true);
  });

  it.each([
    '/nope',
    '/lolgram/p/123',
    '/lolgram/p/not-a-post-id',
    `/lolgram/p/${POST_ID}x`,
    `/lolgram/p/${POST_ID}/more`,
    '/lolgram/someone/else',
    '/admin/players/someone',
    '/admin/players',
  ])('does not know %s (a 404)', (path) => {
    expect(isAppPage(path)).toBe(false);
  });
});

describe('the pages rendered at build time', () => {
  it('are app pages, each with a file of its own beside the plain shell', () => {
    for (const page of PRERENDERED_PAGES) expect(isAppPage(page)).toBe(true);
    const files = PRERENDERED_PAGES.map(prerenderedFile);
    expect(files).toEqual([
      'index.html',
      'play/index.html',
      'leaderboard/index.html',
      'lolgram/index.html',
    ]);
    expect(files).not.toContain(APP_SHELL);
  });
});
