import { Volume2, VolumeX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { cn } from '../../lib/cn';
import { boardRanks, type LeaderboardUser } from '@tapgram/shared';
import { countryName } from '../../lib/countries';
import { CountryFlag } from '../../components/CountryFlag';
import { useAroundMe, useLeaderboardCountries, useLeaderboardUsers } from './queries';
import { LEADERBOARD_SKELETON_ROWS } from '../../lib/ui-constants';

interface Row {
  key: string;
  label: ReactNode;
  points: number;
  rank: number;
  highlight?: boolean;
}

/** Ranks the top of a board by the Rank tile's rule. */
function ranked<T extends { totalPoints: number }>(rows: T[]): (T & { rank: number })[] {
  const ranks = boardRanks(rows.map((row) => row.totalPoints));
  return rows.map((row, index) => ({ ...row, rank: ranks[index] }));
}

function BoardRow({ row, top }: { row: Row; top: boolean }) {
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-xl px-3 py-2',
        top ? 'bg-amber-400/15 ring-1 ring-amber-300/50' : 'bg-slate-800/60',
        row.highlight && 'outline-2 outline-sky-400',
      )}
      aria-current={row.highlight ? 'true' : undefined}
    >
      <span className="min-w-7 text-right font-black tabular-nums text-slate-400">{row.rank}</span>
      <span className="min-w-0 flex-1 truncate font-semibold">{row.label}</span>
      <span className="font-bold tabular-nums text-amber-200">{row.points.toLocaleString()}</span>
    </li>
  );
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
    // Focusable: a keyboard scrolls the board's hundred rows too.
    <ol className="max-h-[28rem] space-y-1.5 overflow-y-auto pr-1" tabIndex={0}>
      {rows.map((row, index) => (
        <BoardRow key={row.key} row={row} top={index === 0} />
      ))}
    </ol>
  );
}

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
  const users = useLeaderboardUsers();
  const countries = useLeaderboardCountries();
  return (
    <aside
      className="rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800 sm:p-4"
      aria-label="Leaderboard"
    >
      <Tabs defaultValue="users">
        <div className="flex flex-wrap items-center gap-2">
          <TabsList className="flex-1">
            <TabsTrigger value="users">Users</TabsTrigger>
            <TabsTrigger value="countries">Countries</TabsTrigger>
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
        <TabsContent value="users">
          <h2 className="mb-2 text-lg font-bold">Top Players</h2>
          <Board
            empty={['No players yet!', 'Be the first to start tapping!']}
            rows={
              users.data &&
              ranked(users.data).map((u) => ({
                key: u.id,
                label: u.username,
                points: u.totalPoints,
                rank: u.rank,
                highlight: u.id === currentUserId,
              }))
            }
          />
          <AroundMe userId={currentUserId} top={users.data} />
        </TabsContent>
        <TabsContent value="countries">
          <h2 className="mb-2 text-lg font-bold">Top Countries</h2>
          <Board
            empty={['No countries yet!', 'Start tapping to represent your country!']}
            rows={
              countries.data &&
              ranked(countries.data).map((c) => ({
                key: c.country,
                label: (
                  <>
                    <CountryFlag code={c.country} /> {countryName(c.country)}
                  </>
                ),
                points: c.totalPoints,
                rank: c.rank,
              }))
            }
          />
        </TabsContent>
      </Tabs>
    </aside>
  );
}
