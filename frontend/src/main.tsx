// First: it starts a worker as the entry's first module runs (see the file).
import './lib/intl-warm';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { preloadPage } from './App';
import { loadTelegramShell } from './features/telegram/bridge';
import { holdEarlyClicks } from './lib/early-clicks';
import { registerServiceWorker } from './lib/service-worker';
import { Root } from './Root';
import './index.css';

const container = document.getElementById('root')!;
const app = <Root router={BrowserRouter} />;

// A page rendered at build time names its path (see prerender.ts): React takes its markup over
// once the page's code (which the HTML preloads) is in, so that hydration has nothing to wait for;
// a click on the page meanwhile is given to it then. Any other page (the plain shell) is rendered
// here. Hydration runs as a transition, in slices the main thread can answer input between
// (hydration of a default update runs in one task, 100-300 ms on a phone); an input on a part
// not yet hydrated makes React hydrate that part at once.
if (container.dataset.prerendered === location.pathname) {
  const release = holdEarlyClicks(container);
  const hydrate = () => {
    startTransition(() => {
      hydrateRoot(container, app);
    });
    release();
    void loadTelegramShell();
  };
  preloadPage(location.pathname).then(hydrate, hydrate);
} else {
  createRoot(container).render(app);
  void loadTelegramShell();
}

// Only the build makes a service worker (vite dev serves none).
if (import.meta.env.PROD) registerServiceWorker();
