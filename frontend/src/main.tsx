import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { preloadPage } from './App';
import { registerServiceWorker } from './lib/service-worker';
import { Root } from './Root';
import './index.css';

const container = document.getElementById('root')!;
const app = <Root router={BrowserRouter} />;

// A page rendered at build time names its path (see prerender.ts): React takes its markup over
// at once. The page's code comes with the HTML; until it has run, React keeps the page's markup
// as it is, and a click on it is replayed once it is hydrated. Any other page (the plain shell)
// is rendered here.
if (container.dataset.prerendered === location.pathname) {
  void preloadPage(location.pathname);
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}

// Only the build makes a service worker (vite dev serves none).
if (import.meta.env.PROD) registerServiceWorker();
