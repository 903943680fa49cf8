import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LandingPage } from './features/landing/LandingPage';
import { NotFoundPage } from './features/not-found/NotFoundPage';

const GamePage = lazy(() =>
  import('./features/game/GamePage').then((m) => ({ default: m.GamePage })),
);
const LeaderboardScreen = lazy(() =>
  import('./features/leaderboard/LeaderboardScreen').then((m) => ({
    default: m.LeaderboardScreen,
  })),
);
const LolgramPage = lazy(() =>
  import('./features/lolgram/LolgramPage').then((m) => ({ default: m.LolgramPage })),
);
const ProfilePage = lazy(() =>
  import('./features/lolgram/ProfilePage').then((m) => ({ default: m.ProfilePage })),
);
const PostPage = lazy(() =>
  import('./features/lolgram/PostPage').then((m) => ({ default: m.PostPage })),
);
const AdminPage = lazy(() =>
  import('./features/admin/AdminPage').then((m) => ({ default: m.AdminPage })),
);

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
