import { VitePWA } from 'vite-plugin-pwa';

/** The app's dark background: the manifest's colours, the icons' and the page's (index.html). */
const BACKGROUND = '#020617';

/** Paths the service worker never answers for: the server's calls, its channel and its probes. */
const SERVER_PATHS = [/^\/api\//, /^\/socket\.io\//, /^\/metrics$/, /^\/healthz$/, /^\/readyz$/];

/**
 * The app installs to the home screen and opens without a network: a web app manifest and a
 * service worker (Workbox) that precaches the app shell, each prerendered page's HTML and the
 * hashed assets, and answers the app's pages from that cache. A new version takes over at once
 * (skipWaiting and clientsClaim) and reloads the pages it takes over (service-worker.ts); the server
 * sends the worker's file with `Cache-Control: no-cache`, so browsers look for one at each visit.
 * It caches nothing else: API calls, images and the game channel always go to the server.
 */
export function pwa() {
  return VitePWA({
    registerType: 'autoUpdate',
    // The app registers it itself (src/lib/service-worker.ts), without workbox-window's 2 KB.
    injectRegister: null,
    // The icons are among the built files the precache takes (globPatterns), once.
    includeManifestIcons: false,
    manifest: {
      id: '/play',
      name: 'TapGram',
      short_name: 'TapGram',
      description: 'Tap to earn, climb the live leaderboards, and share your best LOLs.',
      start_url: '/play',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      theme_color: BACKGROUND,
      background_color: BACKGROUND,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        {
          src: '/icons/icon-maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
      // Hashed files are their own version; the others get one from their content.
      dontCacheBustURLsMatching: /^assets\//,
      globIgnores: [
        // Flags come one at a time as boards show them (1.5 MB in all); the wallet and the admin
        // dashboard need the network anyway, and most visits never load them.
        'assets/flags-*/**',
        'assets/wallet-*',
        'assets/AdminPage-*',
        'assets/SignalCharts-*',
      ],
      // A prerendered page (play/index.html) is cached under its own address (/play): the worker
      // fetches it from there at install, and answers a visit of /play with it.
      manifestTransforms: [
        async (entries) => ({
          manifest: entries.map((entry) => ({
            ...entry,
            url: entry.url.replace(/^(.+)\/index\.html$/, '$1'),
          })),
          warnings: [],
        }),
      ],
      // The app's other pages (and unknown paths, which the app answers with Page Not Found).
      navigateFallback: '/app.html',
      navigateFallbackDenylist: SERVER_PATHS,
      inlineWorkboxRuntime: true,
    },
  });
}
