import type { PrerenderedPage } from '@tapgram/shared/routes';
import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LandingPage } from './features/landing/LandingPage';
import { NotFoundPage } from './features/not-found/NotFoundPage';
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

function Loading() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-slate-400">
      Loading…
    </div>
  );
}

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/play" element={<GamePage />} />
        <Route path="/leaderboard" element={<LeaderboardScreen />} />
        <Route path="/lolgram" element={<LolgramPage />} />
        <Route path="/lolgram/:username" element={<ProfilePage />} />
        <Route path="/lolgram/p/:postId" element={<PostPage />} />
        <Route path="/admin" element={<AdminPage />} />
        <Route path="/admin/players/:id" element={<AdminPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
