import { APP_PAGES, type AppPage, type PrerenderedPage } from '@tapgram/shared/routes';
import { Suspense, useEffect, type ComponentType } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { LandingPage } from './features/landing/LandingPage';
import { NotFoundPage } from './features/not-found/NotFoundPage';
import { telegramShell } from './features/telegram/bridge';
import { lazyPage, type LazyPage } from './lib/lazy-page';

const GamePage = lazyPage(() => import('./features/game/GamePage').then((m) => m.GamePage));
const LeaderboardScreen = lazyPage(() =>
  import('./features/leaderboard/LeaderboardScreen').then((m) => m.LeaderboardScreen),
);
const LolgramPage = lazyPage(() =>
  import('./features/lolgram/LolgramPage').then((m) => m.LolgramPage),
);
const ProfilePage = lazyPage(() =>
  import('./features/lolgram/ProfilePage').then((m) => m.ProfilePage),
);
const PostPage = lazyPage(() => import('./features/lolgram/PostPage').then((m) => m.PostPage));
const AdminPage = lazyPage(() => import('./features/admin/AdminPage').then((m) => m.AdminPage));

/** The page of each path whose HTML is rendered at build time; the landing page is in the entry. */
const PRERENDERED: Record<PrerenderedPage, LazyPage | null> = {
  '/': null,
  '/play': GamePage,
  '/leaderboard': LeaderboardScreen,
  '/lolgram': LolgramPage,
};

/** Loads the code of the page at `pathname`, so that its first render has nothing to wait for. */
export function preloadPage(pathname: string): Promise<void> {
  const page = (PRERENDERED as Partial<Record<string, LazyPage | null>>)[pathname];
  return page?.preload() ?? Promise.resolve();
}

/**
 * The screen of each of the app's pages (shared/src/routes.ts lists them once, for the server's
 * 200-or-404 as for the router): a page without a screen here does not compile.
 */
const PAGES: Record<AppPage, ComponentType> = {
  '/': LandingPage,
  '/play': GamePage,
  '/leaderboard': LeaderboardScreen,
  '/lolgram': LolgramPage,
  '/lolgram/:username': ProfilePage,
  '/lolgram/p/:postId': PostPage,
  '/admin': AdminPage,
  '/admin/players/:playerId': AdminPage,
};

function Loading() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-slate-400">
      Loading…
    </div>
  );
}

/** Tells Telegram's shell (in a Mini App launch) which screen shows: a no-op on the web. */
function TelegramRoute() {
  const { pathname } = useLocation();
  useEffect(() => telegramShell.route(pathname), [pathname]);
  return null;
}

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <TelegramRoute />
      <Routes>
        {APP_PAGES.map((path) => {
          const Page = PAGES[path];
          return <Route key={path} path={path} element={<Page />} />;
        })}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
