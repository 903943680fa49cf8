import type { PrerenderedPage } from '@tapgram/shared/routes';
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { preloadPage } from './App';
import { preloadDeferredParts } from './lib/lazy-page';
import { lolgramKeys } from './features/lolgram/lib/query-keys';
import { Root } from './Root';

// What the build step needs to know of the pages, from the one place that says it.
export { APP_SHELL, PRERENDERED_PAGES, prerenderedFile } from '@tapgram/shared/routes';

/**
 * The markup of the page at `path` as a first visit sees it before any data has come: rendered by
 * the build (prerender.ts) into that page's HTML, and hydrated in the browser. `prerender` waits
 * for every lazily loaded part, so the markup is whole.
 */
export async function render(path: string): Promise<string> {
  await preloadPage(path);
  await preloadDeferredParts();
  const router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path}>{children}</StaticRouter>
  );
  // One piece of markup: a boundary larger than React's progressive chunk is otherwise sent
  // apart, after the rest, for a script to move into place.
  const { prelude } = await prerender(<Root router={router} />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  return new Response(prelude).text();
}

/**
 * What a page fetches first, by path: its HTML asks for it at once (`<link rel="preload">`), and
 * the page's own request takes that answer over, as it asks for the same URL with the same
 * credentials. Query keys are the API paths.
 */
export const FIRST_FETCHES: Partial<Record<PrerenderedPage, string>> = {
  '/lolgram': lolgramKeys.feed[0],
};
