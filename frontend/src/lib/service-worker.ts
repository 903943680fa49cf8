import { whenIdle } from './when-idle';

/**
 * Registers the service worker that the build makes (see pwa.ts) once the page has loaded and is
 * idle, so that neither it nor its precache (every file of the app) competes with the page's start. A new version's worker takes over open pages
 * at once (skipWaiting, clientsClaim); a page it takes over from an older one reloads into the new
 * version instead of running on with the old one's code. (A first install takes over too, and
 * changes nothing: there was no version before it.)
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const updating = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (updating) window.location.reload();
  });
  const register = () => {
    container.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('The app will not work offline: its service worker did not register', error);
    });
  };
  whenIdle(register);
}
