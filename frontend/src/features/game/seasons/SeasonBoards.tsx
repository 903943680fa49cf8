import { History } from 'lucide-react';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { Board, ranked, CountryBoard } from '../BoardList';
import { Countdown } from './Countdown';
import {
  useCurrentSeason,
  usePlayerSeasons,
  useSeasonCountries,
  useSeasonPushes,
  useSeasonUsers,
} from './season-queries';

const PastSeasonsDialog = lazy(() =>
  import('./PastSeasonsDialog').then((m) => ({ default: m.PastSeasonsDialog })),
);

/**
 * The running season's boards on the game screen: its name and the time left, the player's own
 * place in it, its players and countries (live over the game channel), and the past seasons.
 */
export function SeasonBoards({ currentUserId }: { currentUserId: string | undefined }) {
  useSeasonPushes('top100');
  const season = useCurrentSeason();
  // The boards take each answer in a deferred render, which yields between rows: a query's answer
  // re-renders its readers synchronously, in one long task on a phone for a hundred rows.
  const users = useDeferredValue(useSeasonUsers().data);
  const countries = useDeferredValue(useSeasonCountries().data);
  const mine = usePlayerSeasons(currentUserId).data?.[0];
  const [past, setPast] = useState(false);
  return (
    <div data-testid="season-boards">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 rounded-xl bg-fuchsia-500/10 px-3 py-2 ring-1 ring-fuchsia-400/30">
        <p className="font-black text-fuchsia-200">{season.data?.name ?? 'This season'}</p>
        {season.data && (
          <Countdown
            endsAtMs={season.data.endsAtMs}
            offsetMs={season.data.offsetMs}
            className="text-sm font-semibold tabular-nums text-fuchsia-100"
          />
        )}
        {mine && mine.id === season.data?.id && (
          <p className="w-full text-sm text-slate-300" data-testid="season-standing">
            {mine.rank === null
              ? `You: ${mine.points.toLocaleString()} points, off the board`
              : `You: #${mine.rank.toLocaleString()} with ${mine.points.toLocaleString()} points`}
          </p>
        )}
      </div>
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
        </TabsContent>
        <TabsContent value="countries">
          <h2 className="mb-2 text-lg font-bold">Top Countries</h2>
          <CountryBoard countries={countries} />
        </TabsContent>
      </Tabs>
      <Button variant="ghost" size="sm" className="mt-2" onClick={() => setPast(true)}>
        <History className="h-4 w-4" /> Past seasons
      </Button>
      {past && (
        <Suspense fallback={null}>
          <PastSeasonsDialog open={past} onOpenChange={setPast} userId={currentUserId} />
        </Suspense>
      )}
    </div>
  );
}
