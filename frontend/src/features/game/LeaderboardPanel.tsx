import { Volume2, VolumeX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { cn } from '../../lib/cn';
import { countryFlag, countryName } from './countries';
import { useLeaderboardCountries, useLeaderboardUsers } from './queries';
import { LEADERBOARD_SKELETON_ROWS } from '../../lib/ui-constants';

interface Row {
  key: string;
  label: ReactNode;
  points: number;
  highlight?: boolean;
}

function Board({ rows, empty }: { rows: Row[] | undefined; empty: [string, string] }) {
  if (!rows) {
    return (
      <ul aria-busy="true" aria-label="Loading" className="space-y-2">
        {Array.from({ length: LEADERBOARD_SKELETON_ROWS }, (_, i) => (
          <li key={i}>
            <Skeleton className="h-11" data-testid="leaderboard-skeleton" />
          </li>
        ))}
      </ul>
    );
  }
  if (rows.length === 0) {
    return (
      <div className="py-8 text-center">
        <p className="font-semibold">{empty[0]}</p>
        <p className="text-sm text-slate-400">{empty[1]}</p>
      </div>
    );
  }
  return (
    <ol className="max-h-[28rem] space-y-1.5 overflow-y-auto pr-1">
      {rows.map((row, index) => (
        <li
          key={row.key}
          className={cn(
            'flex items-center gap-3 rounded-xl px-3 py-2',
            index === 0 ? 'bg-amber-400/15 ring-1 ring-amber-300/50' : 'bg-slate-800/60',
            row.highlight && 'outline-2 outline-sky-400',
          )}
        >
          <span className="w-7 text-right font-black tabular-nums text-slate-400">{index + 1}</span>
          <span className="min-w-0 flex-1 truncate font-semibold">{row.label}</span>
          <span className="font-bold tabular-nums text-amber-200">
            {row.points.toLocaleString()}
          </span>
        </li>
      ))}
    </ol>
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
  const users = useLeaderboardUsers();
  const countries = useLeaderboardCountries();
  return (
    <aside className="rounded-2xl bg-slate-900 p-4 ring-1 ring-slate-800" aria-label="Leaderboard">
      <Tabs defaultValue="users">
        <div className="flex items-center gap-2">
          <TabsList className="flex-1">
            <TabsTrigger value="users">Users</TabsTrigger>
            <TabsTrigger value="countries">Countries</TabsTrigger>
          </TabsList>
          <Button variant="secondary" size="sm" onClick={onToggleSound} aria-pressed={soundOn}>
            {soundOn ? <Volume2 className="h-4 w-4" /> : <VolumeX className="h-4 w-4" />}
            Sound {soundOn ? 'ON' : 'OFF'}
          </Button>
        </div>
        <TabsContent value="users">
          <h2 className="mb-2 text-lg font-bold">Top Players</h2>
          <Board
            empty={['No players yet!', 'Be the first to start tapping!']}
            rows={users.data?.map((u) => ({
              key: u.id,
              label: u.username,
              points: u.totalPoints,
              highlight: u.id === currentUserId,
            }))}
          />
        </TabsContent>
        <TabsContent value="countries">
          <h2 className="mb-2 text-lg font-bold">Top Countries</h2>
          <Board
            empty={['No countries yet!', 'Start tapping to represent your country!']}
            rows={countries.data?.map((c) => ({
              key: c.country,
              label: (
                <>
                  <span aria-hidden="true">{countryFlag(c.country)}</span> {countryName(c.country)}
                </>
              ),
              points: c.totalPoints,
            }))}
          />
        </TabsContent>
      </Tabs>
    </aside>
  );
}
