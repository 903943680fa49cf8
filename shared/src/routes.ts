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
  '/admin',
] as const;

/** Whether `pathname` is one of the app's pages (a trailing slash allowed, as the router does). */
export function isAppPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const parts = path.split('/');
  return APP_PAGES.some((page) => {
    const pattern = page.split('/');
    return (
      pattern.length === parts.length &&
      pattern.every((part, i) => (part.startsWith(':') ? parts[i] !== '' : part === parts[i]))
    );
  });
}
