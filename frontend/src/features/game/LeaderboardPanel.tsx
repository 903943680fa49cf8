import { Volume2, VolumeX } from 'lucide-react';
import { lazy, Suspense, useDeferredValue } from 'react';
import { Button } from '../../components/ui/button';
import { useHydrated } from '../../lib/hydration';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import type { LeaderboardUser } from '@tapgram/shared';
import { Board, BoardRow, ranked, CountryBoard } from './BoardList';
import { useAroundMe, useLeaderboardCountries, useLeaderboardUsers } from './queries';

const SeasonBoards = lazy(() =>
  import('./seasons/SeasonBoards').then((m) => ({ default: m.SeasonBoards })),
);

/**
 * A player the top of the board leaves out sees their own row and the players just above and
 * below them, under the list.
 */
function AroundMe({
  userId,
  top,
}: {
  userId: string | undefined;
  top: LeaderboardUser[] | undefined;
}) {
  const outsideTop = top !== undefined && !top.some((row) => row.id === userId);
  const around = useAroundMe(userId, outsideTop);
  if (!outsideTop || !around.data?.length) return null;
  return (
    <section aria-labelledby="around-me-title" className="mt-3 border-t border-slate-800 pt-3">
      <h3 id="around-me-title" className="mb-2 text-sm font-bold text-slate-300">
        Around you
      </h3>
      <ol className="space-y-1.5" data-testid="around-me">
        {around.data.map((row) => (
          <BoardRow
            key={row.id}
            top={false}
            row={{
              key: row.id,
              label: row.username,
              points: row.totalPoints,
              rank: row.rank,
              highlight: row.id === userId,
            }}
          />
        ))}
      </ol>
    </section>
  );
}

export function LeaderboardPanel({
  soundOn,
  onToggleSound,
  currentUserId,
}: {
  soundOn: boolean;
  onToggleSound: () => void;
  currentUserId: string | undefined;
}) {
  const hydrated = useHydrated();
  return (
    <aside
      className="rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800 sm:p-4"
      aria-label="Leaderboard"
    >
      <Tabs defaultValue="season">
        <div className="flex flex-wrap items-center gap-2">
          <TabsList className="flex-1" aria-label="Which boards">
            <TabsTrigger value="season">Season</TabsTrigger>
            <TabsTrigger value="all">All time</TabsTrigger>
          </TabsList>
          <Button
            variant="secondary"
            size="sm"
            className="ml-auto"
            onClick={onToggleSound}
            aria-pressed={soundOn}
          >
            {soundOn ? <Volume2 className="h-4 w-4" /> : <VolumeX className="h-4 w-4" />}
            Sound {soundOn ? 'ON' : 'OFF'}
          </Button>
        </div>
        <TabsContent value="season">
          {/* Its code loads once the page is up: the page's HTML and first paint do not wait. */}
          {hydrated ? (
            <Suspense fallback={<Board rows={undefined} empty={['', '']} />}>
              <SeasonBoards currentUserId={currentUserId} />
            </Suspense>
          ) : (
            <Board rows={undefined} empty={['', '']} />
          )}
        </TabsContent>
        <TabsContent value="all">
          <AllTimeBoards currentUserId={currentUserId} />
        </TabsContent>
      </Tabs>
    </aside>
  );
}

/** The all-time boards: every point ever, players and countries. */
function AllTimeBoards({ currentUserId }: { currentUserId: string | undefined }) {
  // Taken in a deferred render, as the season's boards do (SeasonBoards.tsx).
  const users = useDeferredValue(useLeaderboardUsers().data);
  const countries = useDeferredValue(useLeaderboardCountries().data);
  return (
    <Tabs defaultValue="users">
      <TabsList className="w-full">
        <TabsTrigger value="users">Users</TabsTrigger>
        <TabsTrigger value="countries">Countries</TabsTrigger>
      </TabsList>
      <TabsContent value="users">
        <h2 className="mb-2 text-lg font-bold">Top Players</h2>
        <Board
          empty={['No players yet!', 'Be the first to start tapping!']}
          rows={
            users &&
            ranked(users).map((u) => ({
              key: u.id,
              label: u.username,
              points: u.totalPoints,
              rank: u.rank,
              highlight: u.id === currentUserId,
            }))
          }
        />
        <AroundMe userId={currentUserId} top={users} />
      </TabsContent>
      <TabsContent value="countries">
        <h2 className="mb-2 text-lg font-bold">Top Countries</h2>
        <CountryBoard countries={countries} />
      </TabsContent>
    </Tabs>
  );
}
