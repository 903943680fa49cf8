/**
 * The web app's pages. The server answers these with the app (200) and any other path with the
 * app's "Page Not Found" (404), so that a wrong link is an error to crawlers and tools too.
 */
export const APP_PAGES = [
  '/',
  '/play',
  '/leaderboard',
  '/lolgram',
  '/lolgram/:username',
  '/lolgram/p/:postId',
  '/admin',
  '/admin/players/:playerId',
] as const;

/** Parameters with a form of their own: a post's or a player's page exists only for an id (a UUID). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const PARAM_FORMS: Partial<Record<string, RegExp>> = { postId: UUID, playerId: UUID };

function fits(part: string, value: string): boolean {
  if (!part.startsWith(':')) return part === value;
  return value !== '' && (PARAM_FORMS[part.slice(1)]?.test(value) ?? true);
}

/** Whether `pathname` is one of the app's pages (a trailing slash allowed, as the router does). */
export function isAppPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const parts = path.split('/');
  return APP_PAGES.some((page) => {
    const pattern = page.split('/');
    return pattern.length === parts.length && pattern.every((part, i) => fits(part, parts[i]));
  });
}

/** One of the app's pages, as its route pattern. */
export type AppPage = (typeof APP_PAGES)[number];

/**
 * The pages whose HTML the build renders ahead (each page's shell, before any data), served for
 * exactly these paths; the app's other pages get the plain shell, `APP_SHELL`.
 */

export const PRERENDERED_PAGES = ['/', '/play', '/leaderboard', '/lolgram'] as const;
export type PrerenderedPage = (typeof PRERENDERED_PAGES)[number];

/** Where the build writes a prerendered page's HTML, relative to the built app. */
export function prerenderedFile(page: PrerenderedPage): string {
  return page === '/' ? 'index.html' : `${page.slice(1)}/index.html`;
}

/** The built app's plain shell: an empty page the app renders in the browser. */
export const APP_SHELL = 'app.html';
